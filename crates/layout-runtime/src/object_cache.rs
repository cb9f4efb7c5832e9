//! The on-disk cache of compiled kernels: relocatable objects keyed by what determines them.
//!
//! Key: BLAKE3 (LLVM's) of a format version, this crate's version, the LLVM version, the host
//! triple, CPU and CPU features, the optimization level and the text of the module in the LLVM
//! dialect (printed without locations: they do not change the code). An entry is the file
//! `KEY.o` in the cache directory: a magic word, the BLAKE3 of the object, the object; an entry
//! whose check fails is ignored (and rewritten). Writers write a temporary file in the same
//! directory and rename it over the entry, so concurrent runs see a whole entry or none.
//! After each store the directory is trimmed to its size bound, oldest (by modification time,
//! which a hit refreshes) first.
//!
//! Configuration ([`ObjectCache::from_env`]): `LAYOUT_OPT_CACHE=off` (or `0`, `false`, `no`)
//! disables it; `LAYOUT_OPT_CACHE_DIR` sets the directory (default
//! `$XDG_CACHE_HOME/layout-opt/jit`, else `~/.cache/layout-opt/jit`); `LAYOUT_OPT_CACHE_MAX_MB`
//! the bound (default 256). Tools override the process default with [`set_default`].

use std::{
    cell::Cell,
    path::{Path, PathBuf},
    sync::Mutex,
    time::{Duration, SystemTime},
};

/// Bumped when the entry format or the code generation changes in a way no key part shows.
const FORMAT: &str = "layout-opt jit object v1";
const MAGIC: &[u8; 8] = b"LOJITOB1";
const HASH_LEN: usize = 32;
/// Temporary files older than this are left-overs of a killed writer.
const STALE_TEMPORARY: Duration = Duration::from_secs(600);

/// A cache directory and its size bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectCache {
    dir: PathBuf,
    max_bytes: u64,
}

/// A key: the hex BLAKE3 of everything that determines the object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheKey(String);

/// What happened to the cache when a [`crate::Jit`] was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    /// The object came from the cache: nothing was compiled.
    Hit,
    /// Compiled, then stored (`stored` false: the store failed, e.g. a read-only directory).
    Miss { stored: bool },
    /// Compiled; no cache in use.
    Disabled,
}

/// Counts of this thread's [`crate::Jit`] creations by [`CacheOutcome`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    pub disabled: u64,
}

thread_local! {
    static STATS: Cell<CacheStats> = const { Cell::new(CacheStats { hits: 0, misses: 0, disabled: 0 }) };
}

/// This thread's counts so far.
pub fn stats() -> CacheStats {
    STATS.with(Cell::get)
}

pub(crate) fn count(outcome: CacheOutcome) {
    STATS.with(|stats| {
        let mut s = stats.get();
        match outcome {
            CacheOutcome::Hit => s.hits += 1,
            CacheOutcome::Miss { .. } => s.misses += 1,
            CacheOutcome::Disabled => s.disabled += 1,
        }
        stats.set(s);
    });
}

/// The process default: None until first used (then [`ObjectCache::from_env`]) or set.
static DEFAULT: Mutex<Option<Option<ObjectCache>>> = Mutex::new(None);

/// Sets the cache every later [`crate::Jit`] of the process uses (None: no cache).
pub fn set_default(cache: Option<ObjectCache>) {
    *DEFAULT.lock().unwrap_or_else(|e| e.into_inner()) = Some(cache);
}

/// The cache [`crate::Jit::new`] and [`crate::Jit::from_llvm_dialect`] use.
pub fn default_cache() -> Option<ObjectCache> {
    DEFAULT.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(ObjectCache::from_env).clone()
}

impl ObjectCache {
    pub const DEFAULT_MAX_BYTES: u64 = 256 << 20;

    pub fn new(dir: impl Into<PathBuf>, max_bytes: u64) -> ObjectCache {
        ObjectCache { dir: dir.into(), max_bytes }
    }

    /// The cache the environment asks for (module docs), or None when disabled or when there
    /// is no home directory to put it in.
    pub fn from_env() -> Option<ObjectCache> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(switch) = var("LAYOUT_OPT_CACHE") {
            if ["off", "0", "false", "no"].contains(&switch.to_string_lossy().to_ascii_lowercase().as_str()) {
                return None;
            }
        }
        let dir = match var("LAYOUT_OPT_CACHE_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => var("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| var("HOME").map(|home| Path::new(&home).join(".cache")))?
                .join("layout-opt")
                .join("jit"),
        };
        let max_bytes = var("LAYOUT_OPT_CACHE_MAX_MB")
            .and_then(|mb| mb.to_string_lossy().parse::<u64>().ok())
            .map_or(Self::DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1 << 20));
        Some(ObjectCache::new(dir, max_bytes))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// The entry file of `key`.
    pub fn entry(&self, key: &CacheKey) -> PathBuf {
        self.dir.join(format!("{}.o", key.0))
    }

    /// The object stored under `key`, if there is a whole, unchanged one.
    pub(crate) fn load(&self, key: &CacheKey) -> Option<Vec<u8>> {
        let path = self.entry(key);
        let bytes = std::fs::read(&path).ok()?;
        let (header, object) = bytes.split_at_checked(MAGIC.len() + HASH_LEN)?;
        if &header[..MAGIC.len()] != MAGIC || header[MAGIC.len()..] != hash(&[object]) {
            return None;
        }
        // Most recently used: eviction goes by modification time.
        if let Ok(file) = std::fs::File::options().append(true).open(&path) {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(object.to_vec())
    }

    /// Stores `object` under `key` (temporary file + rename), then trims the directory.
    pub(crate) fn store(&self, key: &CacheKey, object: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let temporary = self.dir.join(format!(".{}.{}.{nanos}.tmp", key.0, std::process::id()));
        let mut bytes = Vec::with_capacity(MAGIC.len() + HASH_LEN + object.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&hash(&[object]));
        bytes.extend_from_slice(object);
        let written = std::fs::write(&temporary, &bytes).and_then(|()| std::fs::rename(&temporary, self.entry(key)));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written?;
        self.trim();
        Ok(())
    }

    /// Removes the oldest entries until the directory holds at most `max_bytes` of them, and
    /// stale temporary files. Races with other runs are harmless: a removed entry is a miss.
    pub fn trim(&self) {
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        for item in listing.flatten() {
            let (Ok(meta), name) = (item.metadata(), item.file_name()) else { continue };
            let name = name.to_string_lossy();
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if name.ends_with(".tmp") {
                if now.duration_since(modified).is_ok_and(|age| age > STALE_TEMPORARY) {
                    let _ = std::fs::remove_file(item.path());
                }
            } else if name.ends_with(".o") && meta.is_file() {
                entries.push((modified, meta.len(), item.path()));
            }
        }
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        entries.sort();
        for (_, size, path) in entries {
            if total <= self.max_bytes {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= size;
            }
        }
    }
}

/// BLAKE3 of the parts, each preceded by its length (so no two part lists collide).
fn hash(parts: &[&[u8]]) -> [u8; HASH_LEN] {
    use llvm_sys::blake3::*;
    let mut out = [0u8; HASH_LEN];
    // Safety: the hasher is plain data initialized by llvm_blake3_hasher_init; every input
    // pointer is valid for its length.
    unsafe {
        let mut hasher: Box<llvm_blake3_hasher> = Box::new(std::mem::zeroed());
        llvm_blake3_hasher_init(&mut *hasher);
        for part in parts {
            let length = (part.len() as u64).to_le_bytes();
            llvm_blake3_hasher_update(&mut *hasher, length.as_ptr() as *const _, length.len());
            llvm_blake3_hasher_update(&mut *hasher, part.as_ptr() as *const _, part.len());
        }
        llvm_blake3_hasher_finalize(&mut *hasher, out.as_mut_ptr(), out.len());
    }
    out
}

/// The LLVM version this process runs (`major.minor.patch`).
pub fn llvm_version() -> String {
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    // Safety: writes three integers.
    unsafe { llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    format!("{major}.{minor}.{patch}")
}

impl CacheKey {
    /// The key of the object compiled from `ir_text` (a module in the LLVM dialect) for the
    /// host at the JIT's optimization level.
    pub fn for_host(ir_text: &str) -> CacheKey {
        use inkwell::targets::TargetMachine;
        let triple = TargetMachine::get_default_triple();
        let cpu = TargetMachine::get_host_cpu_name();
        let features = TargetMachine::get_host_cpu_features();
        let level = format!("{:?}", crate::codegen::CODEGEN_LEVEL);
        let digest = hash(&[
            FORMAT.as_bytes(),
            env!("CARGO_PKG_VERSION").as_bytes(),
            llvm_version().as_bytes(),
            triple.as_str().to_bytes(),
            cpu.to_bytes(),
            features.to_bytes(),
            level.as_bytes(),
            ir_text.as_bytes(),
        ]);
        CacheKey(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

//! The on-disk object cache (`layout_runtime::object_cache`): a second compilation of the same
//! module is a hit, hits behave exactly as fresh compilations, a changed module or a damaged
//! entry is a miss, concurrent writers are safe, and the directory keeps to its bound.

use super::{parse, reference_gemm, GEMM_F32};
use layout_npy::{random::Rng, Array, Data, ElemType};
use layout_runtime::{create_context, object_cache, Arg, CacheOutcome, Jit, ObjectCache};
use std::path::PathBuf;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("layout-opt-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|list| list.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// C = A·B + C0 for fixed seeded inputs, through `jit`.
fn gemm_output(jit: &Jit) -> Array {
    let mut rng = Rng::new(42);
    let mut a = rng.array(ElemType::F32, &[13, 29]);
    let mut b = rng.array(ElemType::F32, &[29, 7]);
    let mut c = rng.array(ElemType::F32, &[13, 7]);
    let expected = reference_gemm(&a, &b, &c);
    jit.call("gemm", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c)]).expect("call");
    let Data::F32(got) = c.data() else { panic!("f32 output") };
    for (index, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(*g as f64, *e, "C[{index}]");
    }
    c
}

#[test]
fn a_second_compilation_hits_the_cache_and_computes_the_same() {
    let dir = scratch("hit");
    let cache = ObjectCache::new(&dir, ObjectCache::DEFAULT_MAX_BYTES);
    let context = create_context().unwrap();
    let module = parse(&context, GEMM_F32);

    let uncached = Jit::new_with_cache(&module, None).expect("jit");
    assert_eq!(uncached.cache_outcome(), CacheOutcome::Disabled);
    let before = object_cache::stats();
    let first = Jit::new_with_cache(&module, Some(&cache)).expect("jit");
    assert_eq!(first.cache_outcome(), CacheOutcome::Miss { stored: true });
    assert_eq!(entries(&dir).len(), 1, "one entry: {:?}", entries(&dir));
    let second = Jit::new_with_cache(&module, Some(&cache)).expect("jit");
    assert_eq!(second.cache_outcome(), CacheOutcome::Hit);
    let after = object_cache::stats();
    assert_eq!((after.misses - before.misses, after.hits - before.hits), (1, 1));

    // The cached object is the compiled one: same outputs, bit for bit, as the uncached JIT.
    let reference = gemm_output(&uncached);
    assert_eq!(gemm_output(&first), reference);
    assert_eq!(gemm_output(&second), reference);
    // The same module parsed in another context has the same key.
    let other_context = create_context().unwrap();
    let again = Jit::new_with_cache(&parse(&other_context, GEMM_F32), Some(&cache)).expect("jit");
    assert_eq!(again.cache_outcome(), CacheOutcome::Hit);
    assert_eq!(gemm_output(&again), reference);

    // A different module is another key: a miss and a second entry.
    let scaled = GEMM_F32.replace("%s = arith.addf %acc, %prod : f32", "%s = arith.subf %acc, %prod : f32");
    let changed = Jit::new_with_cache(&parse(&context, &scaled), Some(&cache)).expect("jit");
    assert_eq!(changed.cache_outcome(), CacheOutcome::Miss { stored: true });
    assert_eq!(entries(&dir).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_entry_is_a_miss_and_is_rewritten() {
    let dir = scratch("damaged");
    let cache = ObjectCache::new(&dir, ObjectCache::DEFAULT_MAX_BYTES);
    let context = create_context().unwrap();
    let module = parse(&context, GEMM_F32);
    let reference = gemm_output(&Jit::new_with_cache(&module, Some(&cache)).expect("jit"));
    let entry = dir.join(&entries(&dir)[0]);
    let mut bytes = std::fs::read(&entry).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&entry, &bytes).unwrap();
    let rebuilt = Jit::new_with_cache(&module, Some(&cache)).expect("jit");
    assert_eq!(rebuilt.cache_outcome(), CacheOutcome::Miss { stored: true });
    assert_eq!(gemm_output(&rebuilt), reference);
    assert_eq!(Jit::new_with_cache(&module, Some(&cache)).expect("jit").cache_outcome(), CacheOutcome::Hit);
    // A truncated entry too.
    std::fs::write(&entry, &bytes[..10]).unwrap();
    assert_eq!(
        Jit::new_with_cache(&module, Some(&cache)).expect("jit").cache_outcome(),
        CacheOutcome::Miss { stored: true }
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_writers_of_one_key_leave_one_whole_entry() {
    let dir = scratch("concurrent");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let cache = ObjectCache::new(&dir, ObjectCache::DEFAULT_MAX_BYTES);
                let context = create_context().unwrap();
                let jit = Jit::new_with_cache(&parse(&context, GEMM_F32), Some(&cache)).expect("jit");
                gemm_output(&jit)
            })
        })
        .collect();
    let outputs: Vec<Array> = threads.into_iter().map(|t| t.join().expect("thread")).collect();
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(entries(&dir).len(), 1, "no temporary file left: {:?}", entries(&dir));
    let cache = ObjectCache::new(&dir, ObjectCache::DEFAULT_MAX_BYTES);
    let context = create_context().unwrap();
    let jit = Jit::new_with_cache(&parse(&context, GEMM_F32), Some(&cache)).expect("jit");
    assert_eq!(jit.cache_outcome(), CacheOutcome::Hit);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trimming_removes_the_oldest_entries_beyond_the_bound() {
    let dir = scratch("trim");
    std::fs::create_dir_all(&dir).unwrap();
    let now = std::time::SystemTime::now();
    // Five 1000-byte entries, `e0` oldest; a stale and a fresh temporary file; a foreign file.
    for i in 0..5u64 {
        let path = dir.join(format!("e{i}.o"));
        std::fs::write(&path, vec![0u8; 1000]).unwrap();
        let file = std::fs::File::options().append(true).open(&path).unwrap();
        file.set_modified(now - std::time::Duration::from_secs(3600 - 60 * i)).unwrap();
    }
    let stale = dir.join(".x.1.2.tmp");
    std::fs::write(&stale, b"partial").unwrap();
    std::fs::File::options()
        .append(true)
        .open(&stale)
        .unwrap()
        .set_modified(now - std::time::Duration::from_secs(3600))
        .unwrap();
    std::fs::write(dir.join(".y.1.3.tmp"), b"being written").unwrap();
    std::fs::write(dir.join("notes.txt"), vec![0u8; 5000]).unwrap();
    ObjectCache::new(&dir, 2500).trim();
    // 5000 bytes of entries, bound 2500: the three oldest go; other files are not entries.
    assert_eq!(entries(&dir), [".y.1.3.tmp", "e3.o", "e4.o", "notes.txt"]);
    ObjectCache::new(&dir, 0).trim();
    assert_eq!(entries(&dir), [".y.1.3.tmp", "notes.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_environment_configures_the_default_cache() {
    // Read-only checks of the parsing (no environment changes: tests run in parallel).
    let cache = ObjectCache::new("/tmp/x", 7);
    assert_eq!((cache.dir(), cache.max_bytes()), (std::path::Path::new("/tmp/x"), 7));
    match std::env::var("LAYOUT_OPT_CACHE").ok().as_deref() {
        Some("off" | "0" | "false" | "no") => assert_eq!(ObjectCache::from_env(), None),
        _ => {
            if std::env::var_os("LAYOUT_OPT_CACHE_DIR").is_none() && std::env::var_os("XDG_CACHE_HOME").is_none() {
                if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
                    let expected = std::path::Path::new(&home).join(".cache/layout-opt/jit");
                    assert_eq!(ObjectCache::from_env().map(|c| c.dir().to_path_buf()), Some(expected));
                }
            }
        }
    }
}

//! Each case in a fresh temporary directory: regular files, mode 600, symlinks (also dangling
//! and chained), a FIFO with a reader thread, a Unix socket, a directory.

use super::*;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("output-file-test.{}.{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names in the directory, sorted (so a leftover temporary file shows up).
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn new_and_existing_regular_files_are_replaced_whole() {
    let dir = TempDir::new();
    let out = dir.path("out.txt");
    write(&out, b"first").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"first");
    write(&out, b"second, longer").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"second, longer");
    write(&out, b"3").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"3");
    assert_eq!(dir.names(), ["out.txt"], "no temporary file is left behind");
}

#[test]
fn an_existing_file_keeps_its_mode() {
    let dir = TempDir::new();
    let out = dir.path("secret");
    std::fs::write(&out, b"old").unwrap();
    for wanted in [0o600, 0o640, 0o755] {
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(wanted)).unwrap();
        write(&out, b"new").unwrap();
        assert_eq!(mode(&out), wanted);
        assert_eq!(std::fs::read(&out).unwrap(), b"new");
    }
}

#[test]
fn a_symlink_stays_a_link_and_its_target_is_written() {
    let dir = TempDir::new();
    let real = dir.path("real");
    std::fs::write(&real, b"old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path("link");
    symlink("real", &link).unwrap();
    write(&link, b"through the link").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real"));
    assert_eq!(std::fs::read(&real).unwrap(), b"through the link");
    assert_eq!(mode(&real), 0o600);
    assert_eq!(dir.names(), ["link", "real"]);
}

#[test]
fn a_chain_of_links_into_another_directory_writes_the_final_target() {
    let dir = TempDir::new();
    std::fs::create_dir(dir.path("sub")).unwrap();
    // a -> b (relative, same dir) -> sub/c (relative) -> absolute path of sub/real (dangling).
    symlink("b", dir.path("a")).unwrap();
    symlink("sub/c", dir.path("b")).unwrap();
    symlink(dir.path("sub/real"), dir.path("sub/c")).unwrap();
    write(dir.path("a"), b"created at the end of the chain").unwrap();
    assert_eq!(std::fs::read(dir.path("sub/real")).unwrap(), b"created at the end of the chain");
    for link in ["a", "b", "sub/c"] {
        assert!(std::fs::symlink_metadata(dir.path(link)).unwrap().file_type().is_symlink(), "{link}");
    }
    let mut in_sub: Vec<String> =
        std::fs::read_dir(dir.path("sub")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    in_sub.sort();
    assert_eq!(in_sub, ["c", "real"], "the temporary file was made next to the real target");
}

#[test]
fn a_link_cycle_and_a_link_into_a_missing_directory_are_errors() {
    let dir = TempDir::new();
    symlink("loop2", dir.path("loop1")).unwrap();
    symlink("loop1", dir.path("loop2")).unwrap();
    let error = write(dir.path("loop1"), b"x").unwrap_err();
    assert!(error.to_string().contains("levels of symbolic links"), "{error}");
    symlink("missing/file", dir.path("dangling")).unwrap();
    let error = write(dir.path("dangling"), b"x").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
    assert_eq!(dir.names(), ["dangling", "loop1", "loop2"]);
}

#[test]
fn a_fifo_is_written_through_to_its_reader() {
    let dir = TempDir::new();
    let fifo = dir.path("pipe");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        File::open(reader_path).unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    });
    write(&fifo, b"streamed through the fifo").unwrap();
    // Checked before joining: a replaced FIFO would leave the reader blocked forever.
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");
    assert_eq!(reader.join().unwrap(), b"streamed through the fifo");
    assert_eq!(dir.names(), ["pipe"]);
}

#[test]
fn a_symlink_to_a_fifo_writes_the_fifo() {
    let dir = TempDir::new();
    let fifo = dir.path("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    symlink("pipe", dir.path("to-pipe")).unwrap();
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read(reader_path).unwrap());
    write(dir.path("to-pipe"), b"via link").unwrap();
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::symlink_metadata(dir.path("to-pipe")).unwrap().file_type().is_symlink());
    assert_eq!(reader.join().unwrap(), b"via link");
}

#[test]
fn a_socket_is_written_through_to_its_listener() {
    let dir = TempDir::new();
    let socket = dir.path("sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let reader = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        bytes
    });
    write(&socket, b"over the socket").unwrap();
    assert_eq!(reader.join().unwrap(), b"over the socket");
    assert!(std::fs::symlink_metadata(&socket).unwrap().file_type().is_socket());
}

#[test]
fn a_directory_is_an_error_and_nothing_is_created() {
    let dir = TempDir::new();
    std::fs::create_dir(dir.path("d")).unwrap();
    let error = write(dir.path("d"), b"x").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
    assert!(error.to_string().contains("is a directory"), "{error}");
    symlink("d", dir.path("to-d")).unwrap();
    assert_eq!(write(dir.path("to-d"), b"x").unwrap_err().kind(), io::ErrorKind::IsADirectory);
    assert_eq!(dir.names(), ["d", "to-d"]);
    assert!(std::fs::read_dir(dir.path("d")).unwrap().next().is_none());
}

#[test]
fn a_missing_directory_is_an_error() {
    let dir = TempDir::new();
    let error = write(dir.path("no/such/out"), b"x").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
    assert!(dir.names().is_empty());
}

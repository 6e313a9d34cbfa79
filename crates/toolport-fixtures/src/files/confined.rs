//! [`ConfinedRoot`]: a directory that every path a client names must stay inside.

use std::io;
use std::path::{Component, Path, PathBuf};

/// The directory a [`FilesystemServer`](super::FilesystemServer) serves. Client paths are
/// relative to it; one that is absolute, climbs out with `..`, or resolves (through a symbolic
/// link) to somewhere outside it is refused.
#[derive(Debug, Clone)]
pub(crate) struct ConfinedRoot {
    root: PathBuf,
}

impl ConfinedRoot {
    /// The directory at `root`, which must exist.
    pub(crate) fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = root.as_ref().canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(Self { root })
    }

    /// The root itself.
    pub(crate) fn path(&self) -> &Path {
        &self.root
    }

    /// Where `relative` is, if it names something that exists inside the root.
    pub(crate) fn existing(&self, relative: &str) -> Result<PathBuf, String> {
        let joined = self.join(relative)?;
        let resolved = joined
            .canonicalize()
            .map_err(|error| format!("{relative}: {error}"))?;
        self.check_inside(relative, resolved)
    }

    /// Where a file `relative` is to be written: its directory must exist inside the root.
    pub(crate) fn writable(&self, relative: &str) -> Result<PathBuf, String> {
        let joined = self.join(relative)?;
        let (Some(parent), Some(name)) = (joined.parent(), joined.file_name()) else {
            return Err(format!("{relative}: not a file path"));
        };
        let parent = parent
            .canonicalize()
            .map_err(|error| format!("{relative}: {error}"))?;
        Ok(self.check_inside(relative, parent)?.join(name))
    }

    /// `path` as the client sees it: relative to the root, with `/` between parts.
    pub(crate) fn relative(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        let parts: Vec<_> = relative.iter().map(|part| part.to_string_lossy()).collect();
        if parts.is_empty() {
            ".".to_owned()
        } else {
            parts.join("/")
        }
    }

    fn join(&self, relative: &str) -> Result<PathBuf, String> {
        let path = Path::new(relative);
        let stays_inside = path
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir));
        if stays_inside {
            Ok(self.root.join(path))
        } else {
            Err(outside(relative))
        }
    }

    fn check_inside(&self, relative: &str, resolved: PathBuf) -> Result<PathBuf, String> {
        if resolved.starts_with(&self.root) {
            Ok(resolved)
        } else {
            Err(outside(relative))
        }
    }
}

fn outside(relative: &str) -> String {
    format!("{relative}: outside the served directory; paths are relative to it")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_root_are_refused() {
        let dir = std::env::temp_dir().join(format!("toolport-confined-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tickets")).unwrap();
        std::fs::write(dir.join("tickets/a.md"), "a").unwrap();
        let root = ConfinedRoot::new(&dir).unwrap();

        assert_eq!(
            root.existing("tickets/a.md").unwrap(),
            root.path().join("tickets/a.md")
        );
        assert_eq!(
            root.relative(&root.existing("./tickets").unwrap()),
            "tickets"
        );
        assert_eq!(root.relative(&root.existing(".").unwrap()), ".");
        for escape in ["../etc/passwd", "/etc/passwd", "tickets/../../x"] {
            let error = root.existing(escape).unwrap_err();
            assert!(error.contains("outside the served directory"), "{error}");
            assert!(root.writable(escape).is_err(), "{escape}");
        }
        assert!(root.existing("missing.md").is_err());
        assert_eq!(
            root.writable("tickets/new.md").unwrap(),
            root.path().join("tickets/new.md")
        );
        assert!(root.writable("missing/new.md").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/", dir.join("up")).unwrap();
            let error = root.existing("up/etc").unwrap_err();
            assert!(error.contains("outside the served directory"), "{error}");
            assert!(root.writable("up/etc/x").is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

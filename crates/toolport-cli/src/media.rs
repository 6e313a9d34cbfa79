//! The media parts of a tool's result: described in one line each, and written to new files
//! with `--save-media DIR`.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use toolport::MediaPart;

/// Standard base64, with or without padding.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A part in one line: its kind, MIME type and size, such as `image image/png, 68 bytes`.
pub(crate) fn describe(part: &MediaPart) -> String {
    match part {
        MediaPart::Image { mime_type, data } => {
            format!("image {mime_type}, {} bytes", decoded_size(data))
        }
        MediaPart::Audio { mime_type, data } => {
            format!("audio {mime_type}, {} bytes", decoded_size(data))
        }
        MediaPart::Resource {
            uri,
            mime_type,
            text,
            blob,
        } => {
            let size = match (text, blob) {
                (Some(text), _) => Some(text.len()),
                (None, Some(blob)) => Some(decoded_size(blob)),
                (None, None) => None,
            };
            let mime_type = mime_type.as_deref().map(|mime| format!(" {mime}"));
            match size {
                Some(size) => format!(
                    "resource {uri}{}, {size} bytes",
                    mime_type.unwrap_or_default()
                ),
                None => format!("resource link {uri}{}", mime_type.unwrap_or_default()),
            }
        }
        _ => "a part of a kind this command does not know".to_owned(),
    }
}

/// Whether `--save-media` writes this part to a file: images and audio.
pub(crate) fn is_saved(part: &MediaPart) -> bool {
    matches!(part, MediaPart::Image { .. } | MediaPart::Audio { .. })
}

/// How many taken names in a row [`MediaDir::save`] skips before it gives up.
const MAX_TAKEN: usize = 1000;

/// The longest file stem, in characters, that a tool's name becomes.
const MAX_STEM: usize = 64;

/// Writes the image and audio parts of one tool's result to a directory, as
/// `{tool}-{n}.{extension}` with `n` counting from 1 and the extension from the MIME type.
///
/// Every file is new: it is created with `O_EXCL` (`create_new`), which neither overwrites a
/// file nor follows a symbolic link. A name already taken, by anything, is skipped for the
/// next `n`.
#[derive(Debug)]
pub(crate) struct MediaDir {
    dir: PathBuf,
    stem: String,
    /// The `n` of the last name tried.
    last_number: usize,
}

impl MediaDir {
    /// Creates `dir` if need be, for the parts of `tool`.
    pub(crate) fn create(dir: &Path, tool: &str) -> anyhow::Result<Self> {
        fs::create_dir_all(dir)
            .with_context(|| format!("--save-media {}: cannot create it", dir.display()))?;
        Ok(Self {
            dir: dir.to_owned(),
            stem: file_stem(tool),
            last_number: 0,
        })
    }

    /// Decodes and writes `part` if it is an image or audio clip to a new file, and returns
    /// its path.
    pub(crate) fn save(&mut self, part: &MediaPart) -> anyhow::Result<Option<PathBuf>> {
        let (MediaPart::Image { mime_type, data } | MediaPart::Audio { mime_type, data }) = part
        else {
            return Ok(None);
        };
        let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes = BASE64
            .decode(compact)
            .with_context(|| format!("the {mime_type} part is not valid base64"))?;
        let (path, mut file) = self.create_next(&extension(mime_type))?;
        file.write_all(&bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Some(path))
    }

    /// Creates the file of the next free name with `extension`, skipping names taken.
    fn create_next(&mut self, extension: &str) -> anyhow::Result<(PathBuf, File)> {
        for _ in 0..MAX_TAKEN {
            self.last_number += 1;
            let name = format!("{}-{}.{extension}", self.stem, self.last_number);
            let path = self.dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok((path, file)),
                Err(error) if error.kind() == ErrorKind::AlreadyExists => {}
                Err(error) => {
                    return Err(error).with_context(|| format!("cannot create {}", path.display()));
                }
            }
        }
        let last = format!("{}-{}.{extension}", self.stem, self.last_number);
        anyhow::bail!(
            "--save-media {}: {MAX_TAKEN} names in a row are taken, up to {last}; nothing is overwritten",
            self.dir.display()
        )
    }
}

/// The number of bytes that base64 `data` decodes to.
fn decoded_size(data: &str) -> usize {
    let symbols = data
        .bytes()
        .filter(|byte| !byte.is_ascii_whitespace() && *byte != b'=')
        .count();
    symbols * 3 / 4
}

/// A tool's name as a file name: letters, digits, `-`, `_` and inner dots only, at most 64 of
/// them.
fn file_stem(tool: &str) -> String {
    let stem: String = tool
        .chars()
        .take(MAX_STEM)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = stem.trim_start_matches('.');
    if stem.is_empty() {
        "media".to_owned()
    } else {
        stem.to_owned()
    }
}

/// The file extension for a MIME type: the usual one for common types, else the subtype's
/// own name when it is a plain word, else `bin`.
fn extension(mime_type: &str) -> String {
    let essence = mime_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let subtype = essence.split_once('/').map_or("", |(_, subtype)| subtype);
    let known = match subtype {
        "jpeg" | "pjpeg" => Some("jpg"),
        "svg+xml" => Some("svg"),
        "mpeg" | "mp3" => Some("mp3"),
        "wav" | "wave" | "x-wav" | "vnd.wave" => Some("wav"),
        "mp4" if essence.starts_with("audio/") => Some("m4a"),
        "x-icon" | "vnd.microsoft.icon" => Some("ico"),
        _ => None,
    };
    if let Some(known) = known {
        return known.to_owned();
    }
    let word = subtype.strip_prefix("x-").unwrap_or(subtype);
    let word = word.split('+').next().unwrap_or_default();
    if !word.is_empty() && word.len() <= 8 && word.chars().all(|c| c.is_ascii_alphanumeric()) {
        word.to_owned()
    } else {
        "bin".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_come_from_the_mime_type() {
        for (mime_type, expected) in [
            ("image/png", "png"),
            ("image/jpeg", "jpg"),
            ("image/svg+xml", "svg"),
            ("image/webp", "webp"),
            ("audio/wav", "wav"),
            ("audio/x-wav", "wav"),
            ("audio/mpeg", "mp3"),
            ("audio/ogg; codecs=opus", "ogg"),
            ("audio/x-flac", "flac"),
            ("image/vnd.adobe.photoshop", "bin"),
            ("nonsense", "bin"),
        ] {
            assert_eq!(extension(mime_type), expected, "{mime_type}");
        }
    }

    #[test]
    fn tool_names_become_safe_file_names() {
        assert_eq!(file_stem("get_image"), "get_image");
        assert_eq!(file_stem("../etc/passwd"), "_etc_passwd");
        assert_eq!(file_stem("..."), "media");
        assert_eq!(file_stem("/etc/passwd\0"), "_etc_passwd_");
        assert_eq!(file_stem(&"x".repeat(500)).len(), MAX_STEM);
    }

    #[test]
    fn no_mime_type_steers_the_extension_out_of_a_plain_word() {
        for mime_type in [
            "image/../../etc/passwd",
            "image/..",
            "image/a/b",
            "/etc/passwd",
            "image/png\0.sh",
            "image/x-\0",
            "image/.hidden",
            "image/",
            "",
        ] {
            let extension = extension(mime_type);
            assert!(
                !extension.is_empty()
                    && extension.len() <= 8
                    && extension.chars().all(|c| c.is_ascii_alphanumeric()),
                "{mime_type:?} gave {extension:?}"
            );
        }
    }

    #[test]
    fn a_directory_full_of_taken_names_fails_naming_the_last_one_tried() {
        let dir = std::env::temp_dir().join(format!("toolport-media-full-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut media_dir = MediaDir::create(&dir, "shot").unwrap();
        for n in 1..=MAX_TAKEN {
            fs::write(dir.join(format!("shot-{n}.png")), "taken").unwrap();
        }
        let part = MediaPart::Image {
            mime_type: "image/png".to_owned(),
            data: "aGk=".to_owned(),
        };
        let error = media_dir.save(&part).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "1000 names in a row are taken, up to shot-1000.png; nothing is overwritten"
            ),
            "{error}"
        );
        assert_eq!(fs::read_to_string(dir.join("shot-1.png")).unwrap(), "taken");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes_are_of_the_decoded_bytes() {
        assert_eq!(decoded_size("aGk="), 2);
        assert_eq!(decoded_size("aGVsbG8h"), 6);
        assert_eq!(decoded_size("aGVs\nbG8h"), 6);
    }
}

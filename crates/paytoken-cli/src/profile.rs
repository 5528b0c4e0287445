//! Profiles: named sets of connection settings in a TOML file, so that moving between the
//! sandbox, a test deployment and production is `--profile NAME`.
//!
//! ```toml
//! [profiles.sandbox]
//! base_url = "http://127.0.0.1:8080"
//! member_id = "11344"
//! partner_id = "100"
//! username = "shop.admin"
//! secure_key_file = "sandbox.key"    # beside this file, mode 0600
//! # or: secure_key_env = "SANDBOX_SECURE_KEY"
//! ```
//!
//! The file never holds a secret: a profile names where its secure key is. Everything said
//! about the file (a syntax error, an unknown key, a value of the wrong type) names lines,
//! columns and known keys, never a value or an unknown key's name, either of which may be
//! a secret pasted in the wrong place.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use paytoken::environment;
use toml::{Table, Value};

use crate::bounded::{open_regular_if_present, read_bounded};
use crate::report::Failure;

/// Where the file is when neither `--config-file` nor `PAYTOKEN_CONFIG_FILE` says.
pub(crate) const FILE_NAME: &str = "config.toml";

/// The profile used when none is named.
pub(crate) const DEFAULT_PROFILE: &str = "default";

/// The most the file reads: profiles are a few lines each.
const FILE_BYTES: u64 = 256 * 1024;

/// A setting a profile may hold: its key there (the flag's id too), flag and variable.
pub(crate) type Named = (&'static str, &'static str, &'static str);

pub(crate) const BASE_URL: Named = ("base_url", "--base-url", environment::BASE_URL);

/// The settings a flag, a variable or a profile may give, in the order `whoami` and
/// `config show` print them.
pub(crate) const SETTINGS: [Named; 6] = [
    BASE_URL,
    ("member_id", "--member-id", environment::MEMBER_ID),
    ("partner_id", "--partner-id", environment::PARTNER_ID),
    ("username", "--username", environment::USERNAME),
    ("account_id", "--account-id", environment::ACCOUNT_ID),
    ("terminal_id", "--terminal-id", environment::TERMINAL_ID),
];

/// The profiles file, read and checked.
#[derive(Debug)]
pub(crate) struct ProfileFile {
    pub(crate) path: PathBuf,
    pub(crate) profiles: BTreeMap<String, Profile>,
}

/// One profile's settings, as written.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The [`SETTINGS`] it holds, by key.
    pub(crate) settings: BTreeMap<&'static str, String>,
    /// Where its secure key is.
    pub(crate) secure_key: Option<KeySource>,
}

/// Where a profile's secure key is; never the key itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeySource {
    /// A file, its path relative to the profiles file's folder unless absolute.
    File(PathBuf),
    /// An environment variable, by name.
    Variable(String),
}

impl Profile {
    /// The value of `setting` (a key of [`SETTINGS`]).
    pub(crate) fn get(&self, setting: &str) -> Option<&str> {
        self.settings.get(setting).map(String::as_str)
    }
}

/// The profiles file's path when none is given: `$XDG_CONFIG_HOME/paytoken/config.toml`,
/// else `~/.config/paytoken/config.toml` (`%APPDATA%\paytoken\config.toml` on Windows).
pub(crate) fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            if cfg!(windows) {
                std::env::var_os("APPDATA").map(PathBuf::from)
            } else {
                std::env::var_os("HOME").map(|home| Path::new(&home).join(".config"))
            }
        })?;
    Some(base.join("paytoken").join(FILE_NAME))
}

/// Reads the profiles file at `path`; `None` when it does not exist.
pub(crate) fn load(path: &Path) -> Result<Option<ProfileFile>, Failure> {
    let what = path.display().to_string();
    let Some(file) = open_regular_if_present(path, &what)? else {
        return Ok(None);
    };
    refuse_writable_by_others(&file, path)?;
    let text = read_bounded(
        file,
        FILE_BYTES,
        &what,
        "larger than 256 KiB: is it the profiles file?",
    )?;
    let profiles = parse(&text).map_err(|reason| Failure::usage(format!("{what}: {reason}")))?;
    Ok(Some(ProfileFile {
        path: path.to_owned(),
        profiles,
    }))
}

impl ProfileFile {
    /// The profile called `name`, or the usage error that lists the ones there are.
    pub(crate) fn profile(&self, name: &str) -> Result<&Profile, Failure> {
        self.profiles
            .get(name)
            .ok_or_else(|| Failure::usage(self.missing(name)))
    }

    /// What to say of a profile that is not there: the ones that are.
    pub(crate) fn missing(&self, name: &str) -> String {
        let names: Vec<&str> = self.profiles.keys().map(String::as_str).collect();
        format!(
            "no profile {name:?} in {} (it has: {})",
            self.path.display(),
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        )
    }

    /// A key file's path as the profile means it: relative to this file's folder.
    pub(crate) fn resolve(&self, path: &Path) -> PathBuf {
        match self.path.parent() {
            Some(folder) if path.is_relative() => folder.join(path),
            _ => path.to_owned(),
        }
    }
}

/// The profiles of a file's text, or why it is refused (lines, columns and keys only).
pub(crate) fn parse(text: &str) -> Result<BTreeMap<String, Profile>, String> {
    let table: Table = text.parse().map_err(|error: toml::de::Error| {
        // The error's own text quotes the line, which may hold a key: only where it is.
        match error.span() {
            Some(span) => {
                let (line, column) = line_and_column(text, span.start);
                format!(
                    "not valid TOML at line {line}, column {column} (the line is not shown: it may hold a secret)"
                )
            }
            None => "not valid TOML (the line is not shown: it may hold a secret)".to_owned(),
        }
    })?;
    let mut profiles = BTreeMap::new();
    for (key, value) in table {
        if key != "profiles" {
            return Err(
                "a key other than `profiles` at the top (profiles go under [profiles.NAME])"
                    .to_owned(),
            );
        }
        let Value::Table(named) = value else {
            return Err("`profiles` must be tables: [profiles.NAME]".to_owned());
        };
        for (name, value) in named {
            let Value::Table(settings) = value else {
                return Err(format!(
                    "profile `{}` must be a table: [profiles.{0}]",
                    name.escape_debug()
                ));
            };
            let profile = profile(&name, settings)?;
            profiles.insert(name, profile);
        }
    }
    Ok(profiles)
}

/// One profile's table, checked key by key.
fn profile(name: &str, table: Table) -> Result<Profile, String> {
    let name = name.escape_debug();
    let mut profile = Profile::default();
    for (key, value) in table {
        let text = |value: Value| match value {
            Value::String(text) => Ok(text),
            // Ids are numbers to many people: 11344 means "11344".
            Value::Integer(number) => Ok(number.to_string()),
            _ => Err(format!(
                "`{key}` of profile `{name}`: a string or a whole number"
            )),
        };
        if let Some((setting, ..)) = SETTINGS.into_iter().find(|&(setting, ..)| setting == key) {
            profile.settings.insert(setting, text(value)?);
            continue;
        }
        let source = match key.as_str() {
            "secure_key_file" => KeySource::File(PathBuf::from(text(value)?)),
            "secure_key_env" => KeySource::Variable(text(value)?),
            "secure_key" | "auth_token" => {
                return Err(format!(
                    "profile `{name}` holds `{key}` itself: a profile names where a secret is, never the secret \
                     (move the key into a file, mode 0600, and write `secure_key_file = \"PATH\"`, \
                     or name an environment variable with `secure_key_env = \"NAME\"`)"
                ));
            }
            // Its name is not repeated: a key pasted alone would be one.
            _ => {
                return Err(format!(
                    "profile `{name}` has an unknown key (known: {}, secure_key_file, secure_key_env)",
                    SETTINGS.map(|(setting, ..)| setting).join(", ")
                ));
            }
        };
        if profile.secure_key.replace(source).is_some() {
            return Err(format!(
                "profile `{name}` names its secure key twice: keep secure_key_file or secure_key_env"
            ));
        }
    }
    Ok(profile)
}

/// Saves `profile` as `name` in the profiles file at `path` (created, mode 0600, with its
/// folder, mode 0700), its secure key in `NAME.key` beside it (mode 0600), and gives the
/// key file's path. Profiles already there are kept as written: the new one is appended.
/// A profile or key file of that name holding something else is refused, not replaced.
pub(crate) fn write(
    path: &Path,
    name: &str,
    mut profile: Profile,
    key: &str,
) -> Result<PathBuf, Failure> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(Failure::usage(
            "--write-profile: a name of up to 64 letters, digits, '-' and '_'",
        ));
    }
    let failed = |what: &Path, error: std::io::Error| {
        Failure::usage(format!("--write-profile: {}: {error}", what.display()))
    };
    let folder = path.parent().unwrap_or_else(|| Path::new("."));
    create_private_folder(folder).map_err(|error| failed(folder, error))?;
    let key_name = PathBuf::from(format!("{name}.key"));
    let key_path = folder.join(&key_name);
    profile.secure_key = Some(KeySource::File(key_name));
    let existing = load(path)?;
    let there = existing.as_ref().and_then(|file| file.profiles.get(name));
    if there.is_some_and(|there| *there != profile) {
        return Err(Failure::usage(format!(
            "--write-profile: {} already has a profile {name:?} with other settings: pick another name or remove it",
            path.display()
        )));
    }
    write_private(&key_path, key.as_bytes()).map_err(|error| match error {
        Written::Other => Failure::usage(format!(
            "--write-profile: {} already holds another key: pick another name or remove it",
            key_path.display()
        )),
        Written::Io(error) => failed(&key_path, error),
    })?;
    if existing.is_some_and(|file| file.profiles.contains_key(name)) {
        return Ok(key_path);
    }
    let mut table = Table::new();
    for (setting, value) in &profile.settings {
        table.insert((*setting).to_owned(), Value::String(value.clone()));
    }
    table.insert(
        "secure_key_file".to_owned(),
        Value::String(format!("{name}.key")),
    );
    let mut named = Table::new();
    named.insert(name.to_owned(), Value::Table(table));
    let mut document = Table::new();
    document.insert("profiles".to_owned(), Value::Table(named));
    append_private(path, &format!("\n{document}")).map_err(|error| failed(path, error))?;
    Ok(key_path)
}

/// Creates `folder` (mode 0700 where it is new).
fn create_private_folder(folder: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)
}

/// Why a private file was not written.
enum Written {
    /// It exists with other content.
    Other,
    Io(std::io::Error),
}

/// Writes a new file readable by its owner only; one already holding `content` is kept.
fn write_private(path: &Path, content: &[u8]) -> Result<(), Written> {
    use std::io::Write as _;
    match private_options().create_new(true).open(path) {
        Ok(mut file) => file.write_all(content).map_err(Written::Io),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            let same = std::fs::read(path).map_err(Written::Io)? == content;
            if same { Ok(()) } else { Err(Written::Other) }
        }
        Err(error) => Err(Written::Io(error)),
    }
}

/// Appends `text` to the file at `path`, created readable by its owner only if missing.
fn append_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    private_options()
        .create(true)
        .append(true)
        .open(path)?
        .write_all(text.as_bytes())
}

/// Options that create a file with mode 0600.
fn private_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// The 1-based line and column (in characters) of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let column = before.get(start..).map_or(0, |tail| tail.chars().count()) + 1;
    (line, column)
}

/// Refuses a profiles file that group or others may write: whoever can write it can send
/// this machine's signed requests to a base URL of theirs.
fn refuse_writable_by_others(file: &std::fs::File, path: &Path) -> Result<(), Failure> {
    refuse_mode(file, path, 0o022, |path| {
        format!(
            "{path} is writable by group or others, who could send your signed requests elsewhere: run `chmod go-w {path}`"
        )
    })
}

/// Refuses a key file that group or others may read.
pub(crate) fn refuse_readable_by_others(file: &std::fs::File, path: &Path) -> Result<(), Failure> {
    refuse_mode(file, path, 0o077, |path| {
        format!("the key file {path} is open to group or others: run `chmod 600 {path}`")
    })
}

/// Refuses `file` when its mode has any bit of `bits` (Unix; elsewhere nothing is checked),
/// saying `why` of its path.
fn refuse_mode(
    file: &std::fs::File,
    path: &Path,
    bits: u32,
    why: impl Fn(&str) -> String,
) -> Result<(), Failure> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = file
            .metadata()
            .map_err(|error| Failure::usage(format!("{}: {error}", path.display())))?
            .permissions()
            .mode();
        if mode & bits != 0 {
            return Err(Failure::usage(why(&path.display().to_string())));
        }
    }
    #[cfg(not(unix))]
    let _ = (file, path, bits, why);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_reads_its_settings_and_where_its_key_is() {
        let profiles = parse(
            "[profiles.test]\nbase_url = \"https://gw.example\"\nmember_id = 11344\n\
             partner_id = \"100\"\nsecure_key_env = \"TEST_KEY\"\n",
        )
        .unwrap();
        let test = &profiles["test"];
        assert_eq!(test.get("base_url"), Some("https://gw.example"));
        assert_eq!(test.get("member_id"), Some("11344"));
        assert_eq!(test.get("username"), None);
        assert_eq!(
            test.secure_key,
            Some(KeySource::Variable("TEST_KEY".to_owned()))
        );
    }

    #[test]
    fn refusals_name_keys_and_places_never_values() {
        let secret = "s3cr3t-value";
        for (text, expected) in [
            (
                format!("[profiles.a]\nsecure_key = \"{secret}\"\n"),
                "holds `secure_key` itself",
            ),
            (
                format!("[profiles.a]\nauth_token = \"{secret}\"\n"),
                "holds `auth_token` itself",
            ),
            (
                format!("[profiles.a]\nsecure_key = {secret}\n"),
                "line 2, column 14",
            ),
            (
                format!("[profiles.a]\n{secret} = \"x\"\n"),
                "an unknown key",
            ),
            (
                format!("[profiles.a]\nmember_id = [\"{secret}\"]\n"),
                "a string or a whole number",
            ),
            (
                format!("{secret} = \"x\"\n"),
                "other than `profiles` at the top",
            ),
            (
                format!("[profiles.a]\nsecure_key_file = \"k\"\nsecure_key_env = \"{secret}\"\n"),
                "twice",
            ),
        ] {
            let error = parse(&text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
            assert!(!error.contains(secret), "{error}");
        }
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(line_and_column("ab\ncé=x", 6), (2, 3));
        assert_eq!(line_and_column("x", 0), (1, 1));
    }
}

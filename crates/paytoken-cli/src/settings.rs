//! The connection settings a command uses, each with where it came from: a flag beats the
//! environment, which beats the profile.

use std::path::PathBuf;

use crate::cli::GatewayArgs;
use crate::profile::{self, BASE_URL, KeySource, Named, Profile, ProfileFile, SETTINGS};
use crate::report::Failure;

/// Where the secure key comes from when neither `--secure-key-file` nor a profile says.
pub(crate) const SECURE_KEY_VARIABLE: &str = paytoken::environment::SECURE_KEY;

/// Where a setting came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A flag on the command line.
    Flag(&'static str),
    /// An environment variable.
    Environment(&'static str),
    /// The profile of that name.
    Profile(String),
    /// Nothing said it: the command's default.
    Default,
}

impl Source {
    /// How `whoami` says it: `flag --member-id`, `environment PAYTOKEN_MEMBER_ID`,
    /// `profile sandbox`, `default`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Flag(flag) => format!("flag {flag}"),
            Self::Environment(variable) => format!("environment {variable}"),
            Self::Profile(name) => format!("profile {name}"),
            Self::Default => "default".to_owned(),
        }
    }
}

/// One setting's value, if any, and its source.
#[derive(Debug, Clone)]
pub(crate) struct Setting {
    pub(crate) value: Option<String>,
    pub(crate) source: Source,
}

/// Where the secure key is read from; never the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyOrigin {
    /// `--secure-key-file`.
    FlagFile(PathBuf),
    /// `PAYTOKEN_SECURE_KEY`.
    Environment,
    /// A profile's `secure_key_file` (its permissions are checked).
    ProfileFile { profile: String, path: PathBuf },
    /// A profile's `secure_key_env`.
    ProfileVariable { profile: String, variable: String },
    /// Nowhere.
    Unset,
}

/// The profile in use and how it was chosen.
#[derive(Debug, Clone)]
pub(crate) struct ChosenProfile {
    pub(crate) name: String,
    pub(crate) source: Source,
}

/// Every connection setting of a command, resolved.
#[derive(Debug)]
pub(crate) struct Settings {
    /// The profiles file's path and who named it.
    pub(crate) config_file: Option<(PathBuf, Source)>,
    /// That file, read, when it exists.
    pub(crate) file: Option<ProfileFile>,
    pub(crate) profile: Option<ChosenProfile>,
    pub(crate) base_url: Setting,
    pub(crate) member_id: Setting,
    pub(crate) partner_id: Setting,
    pub(crate) username: Setting,
    pub(crate) account_id: Setting,
    pub(crate) terminal_id: Setting,
    pub(crate) secure_key: KeyOrigin,
}

impl Settings {
    /// Resolves the settings of `args`: reads the profiles file, picks the profile (the one
    /// named, else one called `default` if there is one) and fills in what flags and the
    /// environment left open.
    pub(crate) fn resolve(args: &GatewayArgs) -> Result<Self, Failure> {
        let config_file = config_file(args);
        let loaded = match &config_file {
            Some((path, source)) => {
                let file = profile::load(path)?;
                if file.is_none() && *source != Source::Default {
                    return Err(Failure::usage(format!(
                        "no profiles file at {} (named by {})",
                        path.display(),
                        source.describe()
                    )));
                }
                file
            }
            None => None,
        };
        let looked_at = config_file.as_ref().map(|(path, _)| path.as_path());
        let (chosen, profile) = choose(args, looked_at, loaded.as_ref())?;
        let in_use = chosen.as_ref().zip(profile);
        let pick = |named: Named, given: &Option<String>| setting(args, named, given, in_use);
        let [
            base_url,
            member_id,
            partner_id,
            username,
            account_id,
            terminal_id,
        ] = SETTINGS;
        Ok(Self {
            base_url: pick(base_url, &args.base_url),
            member_id: pick(member_id, &args.member_id),
            partner_id: pick(partner_id, &args.partner_id),
            username: pick(username, &args.username),
            account_id: pick(account_id, &args.account_id),
            terminal_id: pick(terminal_id, &args.terminal_id),
            secure_key: key_origin(args, in_use, loaded.as_ref()),
            profile: chosen,
            config_file,
            file: loaded,
        })
    }

    /// The settings by their profile keys, in `whoami`'s order, each with its value as it
    /// is shown ([`shown`]).
    pub(crate) fn named(&self) -> impl Iterator<Item = (&'static str, Option<String>, &Setting)> {
        let settings = [
            &self.base_url,
            &self.member_id,
            &self.partner_id,
            &self.username,
            &self.account_id,
            &self.terminal_id,
        ];
        SETTINGS
            .into_iter()
            .zip(settings)
            .map(|((key, ..), setting)| {
                let value = setting.value.as_deref().map(|value| shown(key, value));
                (key, value, setting)
            })
    }

    /// The base URL as it is shown, or `None`.
    pub(crate) fn shown_base_url(&self) -> Option<String> {
        self.base_url
            .value
            .as_deref()
            .map(|url| shown(BASE_URL.0, url))
    }
}

/// A setting's value as every command shows it: a URL's user info, query and fragment
/// masked (`https://***@gw.example/?***`), as they may carry credentials. No command sends
/// such a URL (each refuses it), and none prints what it would have carried.
pub(crate) fn shown(key: &str, value: &str) -> String {
    if key != BASE_URL.0 {
        return value.to_owned();
    }
    // The scheme with its `://`, when there is one.
    let (scheme, rest) = value
        .find("://")
        .map_or(("", value), |at| value.split_at(at + 3));
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let masked_user = if host.len() == authority.len() {
        ""
    } else {
        "***@"
    };
    let path = tail.find(['?', '#']).map_or(tail, |at| &tail[..at]);
    let masked_query = if path.len() == tail.len() { "" } else { "?***" };
    format!("{scheme}{masked_user}{host}{path}{masked_query}")
}

/// One setting: the flag's or the variable's value (clap read both; which one it was is
/// in `from_command_line`), else the profile's, else none.
fn setting(
    args: &GatewayArgs,
    (key, flag, variable): Named,
    given: &Option<String>,
    profile: Option<(&ChosenProfile, &Profile)>,
) -> Setting {
    if let Some(value) = given {
        let source = if args.from_command_line.contains(&key) {
            Source::Flag(flag)
        } else {
            Source::Environment(variable)
        };
        return Setting {
            value: Some(value.clone()),
            source,
        };
    }
    match profile.and_then(|(chosen, profile)| Some((chosen, profile.get(key)?))) {
        Some((chosen, value)) => Setting {
            value: Some(value.to_owned()),
            source: Source::Profile(chosen.name.clone()),
        },
        None => Setting {
            value: None,
            source: Source::Default,
        },
    }
}

/// The profiles file's path and who named it: `--config-file`, `PAYTOKEN_CONFIG_FILE`,
/// or the platform's config folder.
pub(crate) fn config_file(args: &GatewayArgs) -> Option<(PathBuf, Source)> {
    match &args.config_file {
        Some(path) if args.from_command_line.contains(&"config_file") => {
            Some((path.clone(), Source::Flag("--config-file")))
        }
        Some(path) => Some((path.clone(), Source::Environment("PAYTOKEN_CONFIG_FILE"))),
        None => profile::default_path().map(|path| (path, Source::Default)),
    }
}

/// The profile in use, if any: the one `--profile` or `PAYTOKEN_PROFILE` names (which must
/// exist in the `file` read at `looked_at`), else `default` when the file has it.
fn choose<'a>(
    args: &GatewayArgs,
    looked_at: Option<&std::path::Path>,
    file: Option<&'a ProfileFile>,
) -> Result<(Option<ChosenProfile>, Option<&'a Profile>), Failure> {
    let Some(name) = &args.profile else {
        let default = file.and_then(|file| file.profiles.get(profile::DEFAULT_PROFILE));
        let chosen = default.map(|_| ChosenProfile {
            name: profile::DEFAULT_PROFILE.to_owned(),
            source: Source::Default,
        });
        return Ok((chosen, default));
    };
    let source = if args.from_command_line.contains(&"profile") {
        Source::Flag("--profile")
    } else {
        Source::Environment("PAYTOKEN_PROFILE")
    };
    let Some(file) = file else {
        let path = looked_at.map_or_else(
            || "the config folder".to_owned(),
            |path| path.display().to_string(),
        );
        return Err(Failure::usage(format!(
            "{} names profile {name:?}, but there is no profiles file at {path} \
             (`paytoken sandbox --write-profile NAME` writes one)",
            source.describe()
        )));
    };
    let profile = file.profile(name)?;
    Ok((
        Some(ChosenProfile {
            name: name.clone(),
            source,
        }),
        Some(profile),
    ))
}

/// Where the key comes from: `--secure-key-file`, then `PAYTOKEN_SECURE_KEY`, then the
/// profile.
fn key_origin(
    args: &GatewayArgs,
    profile: Option<(&ChosenProfile, &Profile)>,
    file: Option<&ProfileFile>,
) -> KeyOrigin {
    if let Some(path) = &args.secure_key_file {
        return KeyOrigin::FlagFile(path.clone());
    }
    if std::env::var_os(SECURE_KEY_VARIABLE).is_some() {
        return KeyOrigin::Environment;
    }
    match profile.and_then(|(chosen, profile)| Some((chosen, profile.secure_key.as_ref()?))) {
        Some((chosen, KeySource::File(path))) => KeyOrigin::ProfileFile {
            profile: chosen.name.clone(),
            path: file.map_or_else(|| path.clone(), |file| file.resolve(path)),
        },
        Some((chosen, KeySource::Variable(variable))) => KeyOrigin::ProfileVariable {
            profile: chosen.name.clone(),
            variable: variable.clone(),
        },
        None => KeyOrigin::Unset,
    }
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_base_url_shows_no_user_info_query_or_fragment() {
        for (given, seen) in [
            ("https://gw.example/api", "https://gw.example/api"),
            ("https://user:S3CRET@gw.example", "https://***@gw.example"),
            (
                "https://gw.example/x?sKey=S3CRET",
                "https://gw.example/x?***",
            ),
            (
                "https://a@b@gw.example/#S3CRET",
                "https://***@gw.example/?***",
            ),
            ("gw.example?sKey=S3CRET", "gw.example?***"),
            ("https://gw.example?S3CRET/more", "https://gw.example?***"),
        ] {
            assert_eq!(shown("base_url", given), seen, "{given}");
        }
        assert_eq!(shown("username", "shop@example"), "shop@example");
    }
}

//! `paytoken config list|show` and `paytoken whoami`: the profiles, and which gateway and
//! merchant a command would use with where each setting came from. Nothing is sent, and no
//! key is shown: a key is named by where it is.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::cli::{ConfigCommand, GatewayArgs};
use crate::config;
use crate::profile::{KeySource, Profile, ProfileFile};
use crate::report::{Failure, Report};
use crate::settings::{self, KeyOrigin, Settings};
use crate::terminal::escape as safe;

/// `paytoken config list` or `paytoken config show [NAME]`.
pub(crate) fn config(command: &ConfigCommand, args: &GatewayArgs) -> Result<Report, Failure> {
    let settings = Settings::resolve(args)?;
    let Some((path, _)) = &settings.config_file else {
        return Err(Failure::usage(
            "no config folder: set XDG_CONFIG_HOME or HOME, or give --config-file",
        ));
    };
    let file = &settings.file;
    let in_use = settings.profile.as_ref().map(|chosen| chosen.name.as_str());
    match command {
        ConfigCommand::List => {
            let profiles: Vec<Value> = file
                .iter()
                .flat_map(|file| file.profiles.iter().map(move |entry| (file, entry)))
                .map(|(file, (name, profile))| {
                    let mut entry = profile_json(profile, file);
                    if let Some(object) = entry.as_object_mut() {
                        object.insert("name".into(), name.as_str().into());
                        object.insert("inUse".into(), (in_use == Some(name.as_str())).into());
                    }
                    entry
                })
                .collect();
            let title = match file {
                Some(_) => format!("{} profile(s) in {}", profiles.len(), path.display()),
                None => format!(
                    "no profiles file at {} (`paytoken sandbox --write-profile NAME` writes one)",
                    path.display()
                ),
            };
            Ok(Report::local(
                "config_list",
                &title,
                json!({ "file": path.display().to_string(), "exists": file.is_some(), "profiles": profiles }),
            ))
        }
        ConfigCommand::Show { name } => {
            let name = name.as_deref().or(in_use).ok_or_else(|| {
                Failure::usage("no profile in use: name one (`paytoken config show NAME`)")
            })?;
            let Some(file) = file else {
                return Err(Failure::usage(format!(
                    "no profiles file at {}",
                    path.display()
                )));
            };
            // Asked for by name, and not there: `not_found`, not a usage error.
            let profile = file
                .profiles
                .get(name)
                .ok_or_else(|| Failure::not_found(file.missing(name)))?;
            let mut shown = profile_json(profile, file);
            if let Some(object) = shown.as_object_mut() {
                object.insert("name".into(), name.into());
                object.insert("file".into(), path.display().to_string().into());
                object.insert("inUse".into(), (in_use == Some(name)).into());
            }
            Ok(Report::local(
                "config_show",
                &format!("profile {name}"),
                shown,
            ))
        }
    }
}

/// A profile's settings, its secure key named by where it is (a key file's path as
/// resolved beside the profiles file).
fn profile_json(profile: &Profile, file: &ProfileFile) -> Value {
    let mut settings = Map::new();
    for (key, value) in &profile.settings {
        settings.insert(camel(key), settings::shown(key, value.as_str()).into());
    }
    let key = match &profile.secure_key {
        Some(KeySource::File(path)) => {
            json!({ "file": file.resolve(path).display().to_string() })
        }
        Some(KeySource::Variable(name)) => json!({ "variable": name }),
        None => Value::Null,
    };
    json!({ "settings": settings, "secureKey": key })
}

/// `paytoken whoami`: each setting with its source, the key's source and whether it reads.
pub(crate) fn whoami(args: &GatewayArgs) -> Result<Report, Failure> {
    let settings = Settings::resolve(args)?;
    let described = describe(&settings);
    Ok(Report::local_text(
        "whoami",
        described.human,
        described.json,
    ))
}

/// The settings in effect as `whoami` shows them (and `doctor` checks them): readable
/// lines, the JSON object, and what stops the secure key from being read, if anything.
pub(crate) struct Described {
    pub(crate) human: String,
    pub(crate) json: Value,
    pub(crate) key_problem: Option<String>,
}

/// The settings in effect, described.
pub(crate) fn describe(settings: &Settings) -> Described {
    let mut named = Map::new();
    for (key, value, setting) in settings.named() {
        named.insert(
            camel(key),
            json!({ "value": value, "source": setting.source.describe() }),
        );
    }
    let (source, location) = match &settings.secure_key {
        KeyOrigin::FlagFile(path) => (
            "flag --secure-key-file".to_owned(),
            path.display().to_string(),
        ),
        KeyOrigin::Environment => (
            "environment".to_owned(),
            settings::SECURE_KEY_VARIABLE.to_owned(),
        ),
        KeyOrigin::ProfileFile { profile, path } => {
            (format!("profile {profile}"), path.display().to_string())
        }
        KeyOrigin::ProfileVariable { profile, variable } => {
            (format!("profile {profile}"), variable.clone())
        }
        KeyOrigin::Unset => ("default".to_owned(), String::new()),
    };
    // Read, to say whether it would work; the key is dropped (and wiped) at once.
    let problem = config::secure_key(&settings.secure_key)
        .err()
        .map(|failure| failure.message().to_owned());
    let profile = settings
        .profile
        .as_ref()
        .map(|chosen| json!({ "name": chosen.name, "source": chosen.source.describe() }));
    let file = settings.config_file.as_ref().map(|(path, source)| {
        json!({ "path": path.display().to_string(), "source": source.describe(), "exists": settings.file.is_some() })
    });
    let caller = match (&settings.member_id.value, &settings.partner_id.value) {
        (Some(member), _) => format!("merchant {member}"),
        (None, Some(partner)) => format!("partner {partner}"),
        (None, None) => "nobody (no member or partner id)".to_owned(),
    };
    let at = settings
        .shown_base_url()
        .unwrap_or_else(|| "no base url".to_owned());
    let mut human = format!("whoami: {} at {}\n", safe(&caller), safe(&at));
    let line = |human: &mut String, name: &str, value: &str, source: &str| {
        let _ = writeln!(human, "  {name:<12} {:<40} {}", safe(value), safe(source));
    };
    match (&settings.profile, &settings.config_file) {
        (Some(chosen), Some((path, _))) => line(
            &mut human,
            "profile",
            &chosen.name,
            &format!("{} in {}", chosen.source.describe(), path.display()),
        ),
        _ => line(&mut human, "profile", "-", "none"),
    }
    for (key, value, setting) in settings.named() {
        line(
            &mut human,
            &key.replace('_', " "),
            value.as_deref().unwrap_or("-"),
            &setting.source.describe(),
        );
    }
    let usable = problem.as_deref().unwrap_or("readable");
    line(
        &mut human,
        "secure key",
        if location.is_empty() { "-" } else { &location },
        &format!("{source}: {usable}"),
    );
    Described {
        human,
        json: json!({
            "configFile": file,
            "profile": profile,
            "settings": named,
            "secureKey": { "source": source, "location": location, "usable": problem.is_none(), "problem": problem },
        }),
        key_problem: problem,
    }
}

/// `member_id` as the JSON says it: `memberId`.
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

//! [`Lab`]: the state a front end shares among the players it runs, owned
//! by that front end (the `ginlab` command's `main`, a Python process) and
//! given to every profile it resolves ([`Profile::in_lab`]): the library
//! keeps no such state in statics.
//!
//! - [`BotHost`]: external bots' options, sandbox launcher and notice, log
//!   folder and running processes;
//! - [`McCaches`]: the tables `mc` players share.
//!
//! [`Profile::in_lab`]: crate::strategy::Profile::in_lab

use std::sync::Arc;

use crate::strategy::{BotHost, McCaches};

/// A front end's shared state (see the module docs). Clones share it; the
/// bots' default log folder goes when the last clone and the last bot
/// holding its host are gone (unless a bot failed).
#[derive(Clone, Debug)]
pub struct Lab {
    bots: Arc<BotHost>,
    mc: McCaches,
}

impl Lab {
    /// A lab with nothing started, no sandbox launcher and empty caches.
    #[must_use]
    pub fn new() -> Lab {
        Lab {
            bots: BotHost::new(),
            mc: McCaches::default(),
        }
    }

    /// What its external bots share.
    #[must_use]
    pub fn bots(&self) -> &Arc<BotHost> {
        &self.bots
    }

    /// The tables its `mc` players share.
    #[must_use]
    pub fn mc(&self) -> &McCaches {
        &self.mc
    }
}

impl Default for Lab {
    fn default() -> Lab {
        Lab::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Profile;

    /// A bound profile's bot starts from the lab's host; binding changes
    /// neither what the profile prints nor what it equals, and two labs
    /// share nothing.
    #[test]
    fn profiles_bound_to_a_lab_share_its_host() {
        let (lab, other) = (Lab::new(), Lab::new());
        let text = "exec:python3 bot.py";
        let loose: Profile = text.parse().unwrap();
        let bound = loose.clone().in_lab(&lab);
        assert_eq!(bound, loose);
        assert_eq!(bound.to_string(), loose.to_string());
        assert!(Arc::ptr_eq(bound.bot().unwrap().host(), lab.bots()));
        assert!(!Arc::ptr_eq(loose.bot().unwrap().host(), lab.bots()));
        let elsewhere = loose.in_lab(&other);
        assert!(!Arc::ptr_eq(elsewhere.bot().unwrap().host(), lab.bots()));
        // Options set on one lab's host are not another's.
        lab.bots().set_bot_options(crate::strategy::BotOptions {
            sandbox: Some(crate::strategy::SandboxMode::Off),
            handshake_ms: Some(5),
            ..crate::strategy::BotOptions::default()
        });
        assert_eq!(
            other.bots().bot_options(),
            crate::strategy::BotOptions::default()
        );
        // mc profiles too; a parameter set after binding keeps the lab.
        let mc: Profile = "mc:samples=8".parse().unwrap();
        assert_eq!(mc.clone().in_lab(&lab), mc);
    }

    /// A host's default log folder goes with it, unless a bot failed.
    #[test]
    fn the_log_folder_goes_with_its_host_unless_kept() {
        let host = BotHost::new();
        let dir = host.default_log_dir().unwrap();
        assert!(dir.is_dir());
        drop(host);
        assert!(!dir.exists());
        let host = BotHost::new();
        let dir = host.default_log_dir().unwrap();
        host.keep_logs();
        drop(host);
        assert!(dir.is_dir());
        std::fs::remove_dir(&dir).unwrap();
    }
}

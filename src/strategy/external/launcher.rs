//! The sandbox launcher: the hidden mode of the host program that a bot is
//! started through (`PROGRAM __sandbox-exec [OPTIONS] -- COMMAND...`, built
//! by `super::sandbox`). It sets the resource limits, drops every
//! capability, restricts itself with Landlock (no new privileges) and,
//! without the network, with a seccomp filter on sockets, and then
//! executes the bot, which keeps all of it. Restricting a process of its
//! own, between ginlab and the bot, needs no code between `fork` and
//! `exec` (the crate denies `unsafe`), and nothing in ginlab is restricted.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;

/// What the launcher was asked to do.
#[derive(Debug, Default)]
struct Request {
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    network: bool,
    no_sockets: bool,
    memory_mb: Option<u64>,
    processes: Option<u64>,
    open_files: Option<u64>,
    require: Option<u8>,
    pids_cgroup: Option<PathBuf>,
    command: Vec<OsString>,
}

fn parse(args: &[OsString]) -> Result<Request, String> {
    let mut request = Request::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let flag = arg.to_str().unwrap_or("");
        if flag == "--" {
            request.command = args.cloned().collect();
            break;
        }
        if flag == "--network" {
            request.network = true;
            continue;
        }
        if flag == "--no-sockets" {
            request.no_sockets = true;
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .to_str()
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| format!("{flag} needs a number"))
        };
        match flag {
            "--read" => request.read.push(value.into()),
            "--write" => request.write.push(value.into()),
            "--memory-mb" => request.memory_mb = Some(number()?),
            "--processes" => request.processes = Some(number()?),
            "--open-files" => request.open_files = Some(number()?),
            "--pids-cgroup" => request.pids_cgroup = Some(value.into()),
            "--require" => request.require = Some(u8::try_from(number()?).unwrap_or(u8::MAX)),
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    if request.command.is_empty() {
        return Err("no command after --".into());
    }
    Ok(request)
}

/// Runs the launcher with the arguments after [`super::LAUNCHER_ARG`]: it
/// returns only on failure, with the exit code (the reason is on stderr,
/// which is the bot's log).
#[must_use]
pub fn run(args: &[OsString]) -> u8 {
    let fail = |why: String| {
        let _ = writeln!(std::io::stderr(), "ginlab sandbox: {why}");
        2
    };
    let request = match parse(args) {
        Ok(request) => request,
        Err(why) => return fail(why),
    };
    #[cfg(target_os = "linux")]
    {
        // First, while it may still write the group's file.
        if let Some(dir) = &request.pids_cgroup
            && let Err(why) = super::pids::join(dir)
        {
            return fail(why);
        }
        if let Err(why) = limit(&request).and_then(|()| drop_capabilities()) {
            return fail(why);
        }
        if let Err(why) = restrict(&request) {
            return fail(why);
        }
        if request.no_sockets
            && let Err(why) = refuse_sockets()
        {
            return fail(why);
        }
    }
    let (program, args) = request.command.split_first().expect("checked in parse");
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = std::process::Command::new(program).args(args).exec();
        fail(format!("cannot start {}: {error}", program.to_string_lossy()))
    }
    #[cfg(not(unix))]
    {
        let _ = args;
        fail(format!("no sandbox on this system for {}", program.to_string_lossy()))
    }
}

/// The resource limits (soft and hard, so the bot cannot raise them).
#[cfg(target_os = "linux")]
fn limit(request: &Request) -> Result<(), String> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let limits = [
        (Resource::As, request.memory_mb.map(|mb| mb.saturating_mul(1 << 20)), "address space"),
        (Resource::Nproc, request.processes, "processes"),
        (Resource::Nofile, request.open_files, "open files"),
    ];
    for (resource, value, what) in limits {
        if let Some(value) = value {
            let limit = Rlimit {
                current: Some(value),
                maximum: Some(value),
            };
            setrlimit(resource, limit).map_err(|e| format!("cannot limit {what} to {value}: {e}"))?;
        }
    }
    Ok(())
}

/// Empties the capability bounding set and the thread's sets, so that a bot
/// started by root has no capability (it could raise its limits with
/// `CAP_SYS_RESOURCE`, or open raw sockets). Without the right to drop them
/// (an ordinary user has none to drop) nothing changes.
#[cfg(target_os = "linux")]
fn drop_capabilities() -> Result<(), String> {
    use rustix::thread::{
        CapabilitySet, CapabilitySets, capabilities, remove_capability_from_bounding_set,
        set_capabilities,
    };
    let held = capabilities(None).map_err(|e| format!("cannot read capabilities: {e}"))?;
    if held.permitted.is_empty() {
        return Ok(());
    }
    for bit in 0..64 {
        if let Some(cap) = CapabilitySet::from_bits(1 << bit) {
            // Unknown to this kernel: EINVAL, nothing to drop.
            let _ = remove_capability_from_bounding_set(cap);
        }
    }
    let none = CapabilitySets {
        effective: CapabilitySet::empty(),
        permitted: CapabilitySet::empty(),
        inheritable: CapabilitySet::empty(),
    };
    set_capabilities(None, none).map_err(|e| format!("cannot drop capabilities: {e}"))
}

/// Landlock: read (and execute) beneath `read`, read and write beneath
/// `write`, this process's own `/proc` entries, no TCP unless `network`,
/// no signal or abstract socket outside; best effort unless `require`
/// names the least level.
#[cfg(target_os = "linux")]
fn restrict(request: &Request) -> Result<(), String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, LandlockStatus, PathBeneath, PathFd, Ruleset,
        RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
    };
    let abi = ABI::V10;
    let fail = |e: landlock::RulesetError| format!("cannot set up Landlock: {e}");
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(fail)?
        .scope(Scope::from_all(abi))
        .map_err(fail)?;
    if !request.network {
        ruleset = ruleset.handle_access(AccessNet::from_all(abi)).map_err(fail)?;
    }
    let mut created = ruleset.create().map_err(fail)?;
    let rules = [
        (&request.read, AccessFs::from_read(abi)),
        (&request.write, AccessFs::from_all(abi)),
    ];
    for (paths, access) in rules {
        for path in paths {
            // A path that does not exist grants nothing.
            let Ok(fd) = PathFd::new(path) else { continue };
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            created = created.add_rule(PathBeneath::new(fd, access)).map_err(fail)?;
        }
    }
    // "/proc/self" is this process, which becomes the bot: the JVM and
    // Python read their own entries; other processes' stay closed.
    if let Ok(fd) = PathFd::new("/proc/self") {
        created = created
            .add_rule(PathBeneath::new(fd, AccessFs::from_read(abi)))
            .map_err(fail)?;
    }
    let status = created.restrict_self().map_err(fail)?;
    let level = match status.landlock {
        LandlockStatus::Available { effective_abi, .. } => effective_abi as u8,
        _ => 0,
    };
    if let Some(required) = request.require
        && (level < required || status.ruleset == RulesetStatus::NotEnforced)
    {
        return Err(format!(
            "Landlock ABI {required} is required (--sandbox strict); this kernel has {level}"
        ));
    }
    Ok(())
}

/// A seccomp filter (the `seccompiler` crate, Firecracker's) that refuses
/// `socket()` for every family but netlink (the kernel's own messages,
/// which the C library reads interfaces through): no UDP, TCP or other
/// network socket, and no unix socket to connect by path, which Landlock
/// closes only from ABI 9 on. `socketpair()` is another call and stays
/// allowed. `io_uring`, which can make sockets without the call, is
/// refused too, and so are the same calls in the x32 numbering; a call in
/// another architecture's numbering (32-bit `int 0x80`) kills the bot
/// (seccompiler's architecture check), so `socketcall` cannot go round it.
/// The refusal is `EACCES`, as a Landlock denial is.
#[cfg(target_os = "linux")]
fn refuse_sockets() -> Result<(), String> {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
        SeccompFilter, SeccompRule,
    };
    use std::collections::BTreeMap;
    /// x32 system calls have this bit set, under the x86-64 architecture.
    const X32: i64 = 0x4000_0000;
    let fail = |e: seccompiler::BackendError| format!("cannot build the seccomp filter: {e}");
    let not_netlink =
        SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, libc::AF_NETLINK as u64)
            .map_err(fail)?;
    let socket = vec![SeccompRule::new(vec![not_netlink]).map_err(fail)?];
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let all_of = [libc::SYS_io_uring_setup, libc::SYS_io_uring_enter, libc::SYS_io_uring_register];
    let x32 = cfg!(target_arch = "x86_64");
    for call in [libc::SYS_socket].into_iter().chain(if x32 { Some(libc::SYS_socket | X32) } else { None }) {
        rules.insert(call, socket.clone());
    }
    for call in all_of {
        rules.insert(call, Vec::new());
        if x32 {
            rules.insert(call | X32, Vec::new());
        }
    }
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("no seccomp filter for this architecture: {e}"))?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(fail)?;
    let program: BpfProgram = filter.try_into().map_err(fail)?;
    seccompiler::apply_filter(&program).map_err(|e| format!("cannot apply the seccomp filter: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        let args: Vec<OsString> = ["--read", "/usr", "--network", "--memory-mb", "64", "--", "a", "--read"]
            .into_iter()
            .map(OsString::from)
            .collect();
        let request = parse(&args).unwrap();
        assert_eq!(request.read, [PathBuf::from("/usr")]);
        assert!(request.network);
        assert_eq!(request.memory_mb, Some(64));
        assert_eq!(request.command, [OsString::from("a"), OsString::from("--read")]);
        assert!(parse(&[OsString::from("--read")]).is_err());
        assert!(parse(&[OsString::from("--")]).is_err());
        assert!(parse(&[OsString::from("--memory-mb"), OsString::from("x")]).is_err());
    }
}

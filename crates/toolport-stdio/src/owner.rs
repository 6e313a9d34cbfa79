//! Binding a child's life to this process's, so that even `kill -9` of the agent takes its
//! servers down (Linux). The child asks the kernel for `SIGKILL` when its parent goes
//! (`PR_SET_PDEATHSIG`). The kernel means the parent *thread*: a child forked from a thread
//! that exits (a blocking-pool thread of tokio, gone after ten idle seconds) would be killed
//! while its session is open. So children are forked from one thread that lives as long as
//! the process, the spawner, started on first use.

use std::io;
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};

use tokio::process::{Child, Command};

/// A spawn for the spawner thread to run.
type Job = Box<dyn FnOnce() + Send>;

/// Marks `command` to be killed when this process ends. Between fork and exec the child asks
/// for `SIGKILL` on its parent's death, then checks that its parent is still this process (it
/// may have died between the fork and the request), and if not, fails to start.
pub(crate) fn die_with_owner(command: &mut Command) {
    let owner = std::process::id();
    // SAFETY: the closure runs in the forked child before exec, where only async-signal-safe
    // calls are allowed; it makes two system calls, with no allocation and no lock.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() as u32 != owner {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Spawns `command` from the spawner thread, registered with the caller's tokio runtime.
///
/// # Panics
///
/// When called outside a tokio runtime, as `Command::spawn` does.
pub(crate) fn spawn(mut command: Command) -> io::Result<Child> {
    let runtime = tokio::runtime::Handle::current();
    let (answer, answered) = mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _entered = runtime.enter();
        // The caller waits for this answer; it cannot have gone.
        let _ = answer.send(command.spawn());
    });
    let gone = || io::Error::other("the thread that starts stdio servers is gone");
    {
        let mut spawner = SPAWNER.lock().unwrap_or_else(PoisonError::into_inner);
        let jobs = match &*spawner {
            Some(jobs) => jobs,
            None => spawner.insert(start_spawner()?),
        };
        jobs.send(job).map_err(|_| gone())?;
    }
    answered.recv().map_err(|_| gone())?
}

/// The spawner thread's queue, once the thread is started.
static SPAWNER: Mutex<Option<mpsc::Sender<Job>>> = Mutex::new(None);

/// Starts the spawner thread, which runs each job it is sent, for as long as the process lives.
fn start_spawner() -> io::Result<mpsc::Sender<Job>> {
    let (jobs, queue) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("toolport-stdio-spawner".to_owned())
        .spawn(move || {
            for job in queue {
                job();
            }
        })?;
    Ok(jobs)
}

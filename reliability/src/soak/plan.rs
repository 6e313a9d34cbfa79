//! [`Phase`]: the soak's phases and their names, and [`Plan`]: how much work each does, full
//! or quick.

use std::time::Duration;

/// One phase of the soak, a row of its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Sessions to a stdio child process, opened and closed one after another.
    CyclesStdio,
    /// Sessions over Streamable HTTP, opened and closed one after another.
    CyclesHttp,
    /// Sessions over legacy HTTP+SSE, opened and closed one after another.
    CyclesSse,
    /// Many calls, many in flight, on one session to a stdio child process.
    CallsStdio,
    /// Many calls, many in flight, on one session over Streamable HTTP.
    CallsHttp,
    /// The manager restarting a crash-looping server while another one answers calls.
    CrashLoop,
}

impl Phase {
    /// Every phase, in the order the soak runs them.
    pub const ALL: [Phase; 6] = [
        Phase::CyclesStdio,
        Phase::CyclesHttp,
        Phase::CyclesSse,
        Phase::CallsStdio,
        Phase::CallsHttp,
        Phase::CrashLoop,
    ];

    /// The phase's name, as `--phase` takes it and the table prints it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::CyclesStdio => "cycles-stdio",
            Phase::CyclesHttp => "cycles-http",
            Phase::CyclesSse => "cycles-sse",
            Phase::CallsStdio => "calls-stdio",
            Phase::CallsHttp => "calls-http",
            Phase::CrashLoop => "crash-loop",
        }
    }

    /// The phase named `name`, if there is one.
    pub fn parse(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|phase| phase.name() == name)
    }

    /// What the phase does at the sizes of `plan`, in a few words.
    pub fn describe(self, plan: &Plan) -> String {
        match self {
            Phase::CyclesStdio | Phase::CyclesHttp | Phase::CyclesSse => format!(
                "{} connect, list, call, close cycles",
                thousands(plan.cycles)
            ),
            Phase::CallsStdio | Phase::CallsHttp => format!(
                "{} calls at {} in flight on one session",
                thousands(plan.calls),
                plan.in_flight
            ),
            Phase::CrashLoop => format!(
                "the manager restarting a server that crashes {} ms after each start, for {} s",
                plan.crash_every.as_millis(),
                plan.crash_loop.as_secs()
            ),
        }
    }
}

/// How much work each phase does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Sessions opened and closed by each `cycles-*` phase.
    pub cycles: usize,
    /// Calls made by each `calls-*` phase.
    pub calls: usize,
    /// How many of those calls are in flight at once.
    pub in_flight: usize,
    /// How long the `crash-loop` phase lasts.
    pub crash_loop: Duration,
    /// How long the crash-looping server serves before it crashes, each time.
    pub crash_every: Duration,
}

impl Plan {
    /// The sizes issue 14 asks for: 1,000 cycles per transport, 100,000 calls at 32 in flight,
    /// 10 minutes of crash loop.
    pub fn full() -> Plan {
        Plan {
            cycles: 1_000,
            calls: 100_000,
            in_flight: 32,
            crash_loop: Duration::from_secs(600),
            crash_every: Duration::from_millis(500),
        }
    }

    /// A run of about half a minute on two cores, for the test that keeps the soak working:
    /// 50 cycles, 5,000 calls, 6 s of crash loop.
    pub fn quick() -> Plan {
        Plan {
            cycles: 50,
            calls: 5_000,
            crash_loop: Duration::from_secs(6),
            ..Plan::full()
        }
    }
}

/// `n` with a comma between each group of three digits: `100,000`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_is_found_by_its_name() {
        for phase in Phase::ALL {
            assert_eq!(Phase::parse(phase.name()), Some(phase));
        }
        assert_eq!(Phase::parse("cycles"), None);
    }

    #[test]
    fn thousands_are_grouped_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}

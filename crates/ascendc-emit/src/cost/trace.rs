//! Chrome-trace JSON (`traceEvents`, opened by Perfetto or chrome://tracing) of a model run:
//! one process per core, one thread per pipe, one complete event per intrinsic call.

use super::report::call_name;
use super::sim::{slot, PIPES};
use super::Estimate;
use std::fmt::Write as _;

impl Estimate {
    /// The timeline of every block (times in microseconds, as the format wants).
    pub fn chrome_trace(&self) -> String {
        let us = |cycles: f64| cycles / self.params.clock_hz * 1e6;
        let mut out = String::from("{\"otherData\":{\"note\":\"layout-opt cost model: a model, not a measurement\"},");
        out.push_str("\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !first {
                out.push_str(",\n");
            }
            first = false;
        };
        for core in 0..self.cores {
            sep(&mut out);
            let _ = write!(
                out,
                "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{core},\"args\":{{\"name\":\"core {core}\"}}}}"
            );
            for p in PIPES {
                sep(&mut out);
                let _ = write!(
                    out,
                    "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{core},\"tid\":{},\"args\":{{\"name\":\"{}\"}}}}",
                    slot(p),
                    p.name()
                );
            }
        }
        let mut offset = vec![0.0f64; self.cores as usize];
        for (b, r) in self.block_run.iter().enumerate() {
            let core = b % self.cores as usize;
            let run = &self.runs[*r];
            for rec in &run.records {
                sep(&mut out);
                let _ = write!(
                    out,
                    "{{\"ph\":\"X\",\"name\":\"{}\",\"cat\":\"{}\",\"pid\":{core},\"tid\":{},\"ts\":{:.4},\"dur\":{:.4},\"args\":{{\"block\":{b}}}}}",
                    call_name(rec.kind, self.params.target),
                    rec.pipe.name(),
                    slot(rec.pipe),
                    us(offset[core] + rec.start),
                    us(rec.end - rec.start)
                );
            }
            offset[core] += run.end;
        }
        out.push_str("\n]}\n");
        out
    }
}

//! The cost of `receive_handoff` against `serde_json::from_slice::<Handoff<T>>` (what a user
//! pays without the envelope's checks: the first error only, no presence, no id checked
//! before the payload), on envelopes of about 0.6 KB and 10 KB, with the `contract` key
//! first (as `send_handoff` writes it: second, after `schemaVersion`) and last (after the
//! payload: the top level must be read to its end before the payload is).
//!
//! Absolute times on a shared 2-core machine swing, so the figures to quote are the ratios
//! printed by `ratios`, measured as `benches/runtime.rs` measures its own: per case, 101
//! rounds in which every method runs one batch (about 2 MB of envelopes) in turn, every
//! other round in reverse order, and the median over rounds of each method's time divided by
//! the baseline's in the same round (with the middle half of those ratios). The target is
//! `receive_handoff` <= 1.10x `from_slice`. The digest an inbox keys the envelope by
//! (`Digest::of_envelope`: its RFC 8785 form, SHA-256) is timed beside them, as a ratio to
//! `from_slice` too: an inbox pays it on top of `receive_handoff`.
//!
//! Run: `cargo bench -p contract-core --bench envelope` (add `-- ratios` for the ratios alone;
//! `RATIOS_ONLY=10KB` in the environment for those whose label holds it). Where the wall clock
//! is too noisy, count instructions instead: run the ratios under `valgrind --tool=callgrind`
//! and compare the inclusive counts of `by_receive_handoff` and `by_serde` (each reads one
//! envelope and drops what it read), or count one method alone:
//! `ENVELOPE_PROFILE=<size>:<order>:<method>:<n>` (size `0.6KB` or `10KB`, order `first` or
//! `last`, method `from_slice`, `receive_handoff` or `digest`) runs it `n` times inside
//! `profiled` and nothing else, after one run outside it (the per-type caches), so that
//! `valgrind --tool=callgrind --toggle-collect='*profiled*' target/release/deps/envelope-… --bench`
//! counts the `n` runs alone.

use std::hint::black_box;
use std::time::{Duration, Instant};

use contract_core::envelope::Digest;
use contract_core::{
    receive_handoff, send_handoff, ArtifactRef, Handoff, HandoffContract, HandoffSchema, Journey,
    ReceiveOptions,
};
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use serde::{Deserialize, Serialize};

/// One line of a refund.
#[derive(Debug, Clone, Serialize, Deserialize, HandoffSchema)]
#[serde(rename_all = "camelCase")]
struct Line {
    sku: String,
    quantity: u32,
    amount_cents: u64,
    reason: String,
}

/// The payload: a refund request with its lines.
#[derive(Debug, Clone, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "bench-refund", version = 1)]
#[serde(rename_all = "camelCase")]
struct Refund {
    order_ref: String,
    category: String,
    currency: String,
    lines: Vec<Line>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn handoff(lines: usize) -> Handoff<Refund> {
    let refund = Refund {
        order_ref: "A-1029-77".into(),
        category: "damaged".into(),
        currency: "EUR".into(),
        lines: (0..lines)
            .map(|i| Line {
                sku: format!("SKU-{i:05}"),
                quantity: (i % 3) as u32 + 1,
                amount_cents: 1250 + i as u64,
                reason: "arrived broken".into(),
            })
            .collect(),
        note: None,
    };
    Handoff::new("ctx-7f3a9c", "handoff-55e1", "triage-agent", refund)
        .goal("Refund the damaged order")
        .artifact(ArtifactRef::new("policy", "s3://policies/refunds.md", 4))
        .journey(Journey::new("triage-agent", "refund-specialist"))
        .ready()
}

/// The envelope as `send_handoff` writes it (`contract` second), and with `contract` moved
/// after the payload, last.
fn envelopes(lines: usize) -> (Handoff<Refund>, Vec<u8>, Vec<u8>) {
    let mut handoff = handoff(lines);
    let first = send_handoff(&mut handoff).expect("sent").into_bytes();
    let text = String::from_utf8(first.clone()).expect("UTF-8");
    let member = format!(",\"contract\":\"{}\"", handoff.contract);
    assert!(text.contains(&member));
    let mut last = text.replacen(&member, "", 1);
    last.pop();
    last.push_str(&member);
    last.push('}');
    (handoff, first, last.into_bytes())
}

/// Two sizes: lines for an envelope of about 0.6 KB and about 10 KB.
const SIZES: [(&str, usize); 2] = [("0.6KB", 0), ("10KB", 108)];

fn check(bytes: &[u8], expected: &Handoff<Refund>) {
    if std::env::var_os("SHOW_ENVELOPE").is_some() {
        println!("{}", String::from_utf8_lossy(bytes));
    }
    let options = ReceiveOptions::default();
    let delivery = receive_handoff::<Refund>(bytes, &options).expect("received");
    assert_eq!(delivery.envelope().handoff_id, expected.handoff_id);
    let by_serde: Handoff<Refund> = serde_json::from_slice(bytes).expect("serde reads it");
    assert_eq!(by_serde.payload.lines.len(), expected.payload.lines.len());
}

fn benches(c: &mut Criterion) {
    let options = ReceiveOptions::default();
    for (size, lines) in SIZES {
        let (handoff, first, last) = envelopes(lines);
        for (order, bytes) in [("contract_first", &first), ("contract_last", &last)] {
            check(bytes, &handoff);
            let mut group = c.benchmark_group(format!("envelope_{order}"));
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_with_input(
                BenchmarkId::new("receive_handoff", size),
                bytes,
                |b, bytes| b.iter(|| receive_handoff::<Refund>(black_box(bytes), &options).is_ok()),
            );
            group.bench_with_input(BenchmarkId::new("from_slice", size), bytes, |b, bytes| {
                b.iter(|| serde_json::from_slice::<Handoff<Refund>>(black_box(bytes)).is_ok())
            });
            group.finish();
        }
        let mut group = c.benchmark_group("send_handoff");
        group.throughput(Throughput::Bytes(first.len() as u64));
        group.bench_with_input(BenchmarkId::new("send_handoff", size), &handoff, |b, h| {
            b.iter(|| {
                let mut h = h.clone();
                send_handoff(black_box(&mut h)).is_ok()
            })
        });
        group.bench_with_input(BenchmarkId::new("clone_to_vec", size), &handoff, |b, h| {
            b.iter(|| {
                let h = h.clone();
                serde_json::to_vec(black_box(&h)).is_ok()
            })
        });
        group.finish();
    }
}

/// Times `batch` runs of `f`.
fn timed(batch: u32, mut f: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        black_box(f());
    }
    start.elapsed()
}

/// Interleaved rounds: each method runs one batch per round; the median (and the middle
/// half) of per-round ratios to the first method.
fn ratios_of(
    label: &str,
    rounds: usize,
    batch: u32,
    methods: &mut [(&str, &mut dyn FnMut() -> bool)],
) {
    if let Ok(only) = std::env::var("RATIOS_ONLY") {
        if !label.contains(only.as_str()) {
            return;
        }
    }
    let mut per_method: Vec<Vec<f64>> = vec![Vec::new(); methods.len()];
    for (_, f) in methods.iter_mut() {
        timed(batch, f);
    }
    let mut times = vec![0.0; methods.len()];
    for round in 0..rounds {
        for m in 0..methods.len() {
            let m = if round % 2 == 0 {
                m
            } else {
                methods.len() - 1 - m
            };
            times[m] = timed(batch, &mut methods[m].1).as_secs_f64();
        }
        for (m, t) in times.iter().enumerate() {
            per_method[m].push(t / times[0]);
        }
    }
    let (base, _) = methods[0];
    for (m, (name, _)) in methods.iter().enumerate().skip(1) {
        let mut ratios = per_method[m].clone();
        ratios.sort_by(f64::total_cmp);
        let at = |q: usize| ratios[(ratios.len() - 1) * q / 4];
        println!(
            "ratio {label}: {name} / {base} = {:.2}x (median of {rounds} rounds; middle half {:.2}-{:.2})",
            at(2),
            at(1),
            at(3)
        );
    }
}

/// One envelope read by serde, the value dropped: a function of its own, so that a profiler
/// (`valgrind --tool=callgrind`) counts its instructions apart.
#[inline(never)]
fn by_serde(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Handoff<Refund>>(bytes).is_ok()
}

/// One envelope read by `receive_handoff`, the delivery dropped (as [`by_serde`]).
#[inline(never)]
fn by_receive_handoff(bytes: &[u8], options: &ReceiveOptions) -> bool {
    receive_handoff::<Refund>(bytes, options).is_ok()
}

/// The digest an inbox keys an envelope by (RFC 8785, SHA-256), as [`by_serde`].
#[inline(never)]
fn by_digest(bytes: &[u8]) -> bool {
    Digest::of_envelope(bytes).is_ok()
}

fn ratios(c: &mut Criterion) {
    // The ratios are printed, not measured by criterion; a filter naming them runs them.
    let _ = c;
    let options = ReceiveOptions::default();
    println!("target: receive_handoff <= 1.10x from_slice");
    for (size, lines) in SIZES {
        let (handoff, first, last) = envelopes(lines);
        for (order, bytes) in [("contract first", &first), ("contract last", &last)] {
            check(bytes, &handoff);
            let batch = (2_000_000 / bytes.len().max(1)).clamp(4, 20_000) as u32;
            println!(
                "envelope {size}, {order}: {} bytes, batch {batch}",
                bytes.len()
            );
            ratios_of(
                &format!("envelope {size} {order}"),
                101,
                batch,
                &mut [
                    ("from_slice", &mut || by_serde(bytes)),
                    ("receive_handoff", &mut || {
                        by_receive_handoff(bytes, &options)
                    }),
                    ("Digest::of_envelope", &mut || by_digest(bytes)),
                ],
            );
        }
    }
}

/// Runs `f` `n` times: the function callgrind's `--toggle-collect` names.
#[inline(never)]
fn profiled(n: u32, f: &mut dyn FnMut() -> bool) -> u32 {
    let mut ok = 0;
    for _ in 0..n {
        ok += u32::from(black_box(f()));
    }
    ok
}

/// `ENVELOPE_PROFILE=<size>:<order>:<method>:<n>` (see the module docs).
fn profile(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [size, order, method, n] = parts[..] else {
        panic!("ENVELOPE_PROFILE is <size>:<order>:<method>:<n>, not `{spec}`");
    };
    let n: u32 = n.parse().expect("ENVELOPE_PROFILE: n is a number");
    let (_, lines) = SIZES
        .iter()
        .find(|(name, _)| *name == size)
        .unwrap_or_else(|| panic!("ENVELOPE_PROFILE: no size `{size}`"));
    let (handoff, first, last) = envelopes(*lines);
    let bytes = match order {
        "first" => first,
        "last" => last,
        other => panic!("ENVELOPE_PROFILE: no order `{other}` (first or last)"),
    };
    check(&bytes, &handoff);
    let options = ReceiveOptions::default();
    let mut f: Box<dyn FnMut() -> bool + '_> = match method {
        "from_slice" => Box::new(|| by_serde(black_box(&bytes))),
        "receive_handoff" => Box::new(|| by_receive_handoff(black_box(&bytes), &options)),
        "digest" => Box::new(|| by_digest(black_box(&bytes))),
        other => panic!("ENVELOPE_PROFILE: no method `{other}`"),
    };
    // Once outside the count: the per-type caches and the thread's buffers.
    assert!(f(), "ENVELOPE_PROFILE: {method} did not succeed");
    let ok = profiled(n, &mut *f);
    println!(
        "profiled {method}: {ok} of {n} succeeded, {} bytes",
        bytes.len()
    );
}

criterion_group!(envelope, benches);
criterion_group!(ratio, ratios);

fn main() {
    if let Ok(spec) = std::env::var("ENVELOPE_PROFILE") {
        profile(&spec);
        return;
    }
    envelope();
    ratio();
    Criterion::default().configure_from_args().final_summary();
}

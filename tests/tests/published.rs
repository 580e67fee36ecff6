//! The snapshot test of a published contract fails with the compatibility report, not only a
//! text diff, when the type changed incompatibly; a new version (no file) passes.

mod common;

use common::{Ping, FIXTURES};
use contract_core::schema::compat::Rule;
use contract_core::schema::snapshot::{PublishedError, SnapshotErrorKind};
use contract_core::{check_published, HandoffSchema};

#[test]
fn an_incompatible_change_of_a_published_version_fails_with_the_report() {
    // tests/fixtures/published/ping.v1.snap publishes `seq: u64` and no `origin`.
    let error =
        check_published::<Ping<1>>().expect_err("u64 -> u32 and a new required field break");
    let report = error.report().expect("a compatibility report");
    assert!(report.has(Rule::IntNarrowed), "{report}");
    assert!(report.has(Rule::FieldAddedRequired), "{report}");
    let err = error.to_string();
    assert!(err.contains("INT_NARROWED"), "{err}");
    assert!(err.contains("seq"), "{err}");
    assert!(err.contains("origin"), "{err}");
    assert!(
        err.contains("ping.v1.snap"),
        "the message names the snapshot file: {err}"
    );
    assert!(
        err.contains("version = 2"),
        "the message suggests the next major: {err}"
    );
}

#[test]
fn a_version_without_a_snapshot_is_new_and_passes() {
    assert_eq!(check_published::<Ping<7>>(), Ok(()));
}

#[test]
fn a_compatible_published_version_passes() {
    // tests/fixtures/published/ping.v2.snap publishes exactly today's shape.
    let file = std::path::Path::new(FIXTURES).join("ping.v2.snap");
    let published = std::fs::read_to_string(file).expect("the fixture exists");
    let today = contract_core::schema::text::to_text(&<Ping<2>>::schema());
    assert!(
        published.ends_with(&today),
        "the fixture is today's text:\n{today}"
    );
    assert_eq!(check_published::<Ping<2>>(), Ok(()));
}

#[test]
fn an_unreadable_snapshot_names_the_file_and_line() {
    // tests/fixtures/published/ping.v3.snap is not canonical text.
    let error = check_published::<Ping<3>>().expect_err("the file does not parse");
    let PublishedError::Unreadable {
        error: snapshot, ..
    } = &error
    else {
        panic!("not a parse error: {error}");
    };
    assert_eq!(snapshot.kind(), SnapshotErrorKind::Syntax);
    assert_eq!(snapshot.line(), Some(6));
    assert!(snapshot.path().ends_with("ping.v3.snap"));
    let err = error.to_string();
    assert!(err.contains("ping.v3.snap:6:"), "{err}");
    assert!(
        err.starts_with("the published snapshot of `ping/v3` does not parse: "),
        "{err}"
    );
}

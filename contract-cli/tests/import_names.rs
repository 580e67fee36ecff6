//! `handoff diff PEER.json SNAP --mode check`: the findings name a peer's types as the
//! import names them, a title made one word and an inline type by where it sits, in the
//! text and in the JSON output alike.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A folder of its own under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "handoff-import-names-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("a temporary file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A consumer that reads both fields as strings.
const READER: &str = "\
root Refund

struct Refund
  rust \"app::Refund\"
  unknown ignore
  field category: string
    send \"category\" always
    receive \"category\" required
  field meta: string
    send \"meta\" always
    receive \"meta\" required
";

/// A producer whose fields are objects: one titled with spaces (as pydantic titles a
/// field), one untitled (as zod writes an inline object).
const PRODUCER: &str = r#"{
  "title": "refund request",
  "type": "object",
  "properties": {
    "category": {"title": "Category Kind", "type": "object",
                 "properties": {"code": {"type": "string"}}, "required": ["code"]},
    "meta": {"type": "object", "properties": {"source": {"type": "integer"}}, "required": ["source"]}
  },
  "required": ["category", "meta"]
}"#;

fn diff(format: &str) -> Output {
    let tmp = TempDir::new(format);
    let peer = tmp.write("producer.json", PRODUCER);
    let snap = tmp.write("reader.snap", READER);
    Command::new(env!("CARGO_BIN_EXE_handoff"))
        .arg("diff")
        .arg(&peer)
        .arg(&snap)
        .args(["--mode", "check", "--format", format])
        .output()
        .expect("the binary runs")
}

#[test]
fn findings_name_a_peers_types_as_imported() {
    let out = diff("text");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    for why in [
        "`CategoryKind` sent by writers is not read as the `string` of readers",
        "`RefundRequest::meta` sent by writers is not read as the `string` of readers",
    ] {
        assert!(text.contains(why), "{why:?} not in:\n{text}");
    }
    // The names before the import made them the text's: the title and the place as given.
    for old in ["`Category Kind`", "`refund request.meta`"] {
        assert!(!text.contains(old), "{old:?} in:\n{text}");
    }
}

#[test]
fn the_json_output_names_them_alike() {
    let out = diff("json");
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON document");
    let whys: Vec<(&str, &str)> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default(),
                f["why"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        whys,
        [
            (
                "category",
                "`CategoryKind` sent by writers is not read as the `string` of readers"
            ),
            (
                "meta",
                "`RefundRequest::meta` sent by writers is not read as the `string` of readers"
            ),
        ]
    );
}

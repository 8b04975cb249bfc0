//! Embeds every file under the workspace's `web/` folder in the binary, so
//! `parlor serve` needs no files beside it and no front-end build step.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    collect(&web, &web, &mut files);
    files.sort();
    let mut out = String::from("/// Embedded front-end files: (path under web/, contents).\n");
    out.push_str("pub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    // The rules documents, served as pages at /rules/{game}.
    let rules = manifest.join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut docs: Vec<(String, PathBuf)> = std::fs::read_dir(&rules)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .filter_map(|p| {
                    let name = p.file_stem()?.to_string_lossy().to_string();
                    let abs = p.canonicalize().ok()?;
                    Some((name, abs))
                })
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    out.push_str("/// Embedded rules documents: (game name, markdown).\n");
    out.push_str("pub(crate) static RULES: &[(&str, &str)] = &[\n");
    for (name, abs) in &docs {
        println!("cargo:rerun-if-changed={}", abs.display());
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("web_files.rs");
    std::fs::write(dest, out).expect("write web_files.rs");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        // Tests, their packages and editor droppings are not served.
        if name.starts_with('.')
            || name == "node_modules"
            || name == "tests"
            || name.starts_with("package")
        {
            continue;
        }
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(root, &path, files);
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let abs = path.canonicalize().unwrap_or(path.clone());
            files.push((rel, abs));
        }
    }
}

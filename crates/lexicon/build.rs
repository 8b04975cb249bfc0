//! Builds the FST of each embedded word list at compile time, so that
//! loading an embedded list at run time does not build it again (that build
//! is most of the loading time, and ten times more in debug builds).
//!
//! The lists are `data/lexicon/<name>.txt`, already in canonical form
//! (sorted, distinct, a-z, one per line; `scripts/build-lexicons` makes them
//! and a unit test checks them). The FSTs go to `$OUT_DIR/<name>.fst`.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let data = manifest.join("../../data/lexicon");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    for name in ["en", "en-large"] {
        let src = data.join(format!("{name}.txt"));
        println!("cargo:rerun-if-changed={}", src.display());
        let text = fs::read(&src).unwrap_or_else(|e| panic!("cannot read {}: {e}", src.display()));
        let words = text.split(|&b| b == b'\n').filter(|w| !w.is_empty());
        let fst = fst::raw::Fst::from_iter_set(words).unwrap_or_else(|e| {
            panic!(
                "{} is not sorted and distinct ({e}); rebuild it with scripts/build-lexicons",
                src.display()
            )
        });
        let dst = out.join(format!("{name}.fst"));
        fs::write(&dst, fst.as_bytes())
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", dst.display()));
    }
    println!("cargo:rerun-if-changed=build.rs");
}

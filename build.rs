// Templates are embedded with include_dir; rebuild when any of them (or a new one) changes.
fn main() {
    println!("cargo:rerun-if-changed=templates");
}

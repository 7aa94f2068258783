fn main() -> std::process::ExitCode {
    skillc::cli::main()
}

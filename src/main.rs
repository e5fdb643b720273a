fn main() {
    std::process::exit(cuecard::commands::main(std::env::args_os().collect()));
}

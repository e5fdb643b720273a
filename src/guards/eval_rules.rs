//! The `eval` guard's content rules: dynamic evaluation and unsafe
//! deserialisation primitives, per language family, found in code with its
//! comments and strings blanked ([`super::lexical::blank`]).
//!
//! Each rule looks for a call, not a word: `eval(` as a free function (not
//! `model.eval()`, `literal_eval(`, `evaluate(`), `compile(` only with the
//! `'exec'` mode, `yaml.load(` only without a safe loader, `subprocess` only
//! with `shell=True`, Ruby's `instance_eval` only of a string (not a block).

use super::lexical::{self, Family, call_args, prev_non_blank, skip_blanks, word_positions};

/// One primitive found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// How the advisory names it (`pickle.loads`, `eval`, `curl | sh`, ...).
    pub primitive: &'static str,
    /// 1-based line in the scanned text.
    pub line: usize,
}

/// The first primitive in `src`, a text of the given family (not shell:
/// shell text is judged by its parsed commands).
pub fn scan(src: &str, family: Family) -> Option<Hit> {
    let code = lexical::blank(src, family);
    let found = match family {
        Family::Python => python(src, &code),
        Family::Js => js(src, &code),
        Family::Ruby => ruby(&code),
        Family::Php => php(&code),
        Family::PowerShell => powershell(&code),
        Family::Shell => None,
    };
    found.map(|(primitive, at)| Hit {
        primitive,
        line: lexical::line_of(src, at),
    })
}

type Found = Option<(&'static str, usize)>;

/// A named rule: the name documents it; the function finds it.
type Rule = (&'static str, fn(&str, &str) -> Found);

/// Calls of `name(` where `name` is a free function (not a method: no `.`
/// before it) and a whole word.
fn free_calls<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    word_positions(code, name).filter(move |&i| {
        let open = skip_blanks(code, i + name.len());
        code.as_bytes().get(open) == Some(&b'(')
            && prev_non_blank(code, i) != Some(b'.')
            && !is_definition(code, i)
            && !is_method_definition(code, open)
    })
}

/// Whether the call whose `(` is at `open` is really a method definition
/// (`eval(expr: string): number {` in a class body): its parameter list is
/// followed by a body or a return type.
fn is_method_definition(code: &str, open: usize) -> bool {
    let args = call_args(code, open);
    let after = skip_blanks(code, (args.end + 1).min(code.len()));
    match code.as_bytes().get(after) {
        Some(b'{') => true,
        // A TypeScript return type: `): number {` on the same line.
        Some(b':') => code[after + 1..]
            .split(['\n', ';', '='])
            .next()
            .is_some_and(|rest| rest.trim_end().ends_with('{')),
        _ => false,
    }
}

/// Whether the name at `i` is being defined (`def eval(`, `function eval(`).
fn is_definition(code: &str, i: usize) -> bool {
    let before = code[..i].trim_end();
    ["def", "function", "fn"].iter().any(|kw| {
        before.ends_with(kw)
            && before[..before.len() - kw.len()]
                .bytes()
                .next_back()
                .is_none_or(|c| !lexical::is_ident(c))
    })
}

/// Calls of a dotted name such as `pickle.loads(`, as whole words.
fn dotted_calls<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    word_positions(code, name).filter(move |&i| {
        let open = skip_blanks(code, i + name.len());
        code.as_bytes().get(open) == Some(&b'(')
    })
}

fn first<I: Iterator<Item = usize>>(primitive: &'static str, it: I) -> Found {
    let mut it = it;
    it.next().map(|at| (primitive, at))
}

/// The argument text of the call starting at `at` (a name followed by `(`),
/// read from `from` (the blanked code or the original), without blanks.
fn args_of(code: &str, from: &str, at: usize) -> String {
    let open = code[at..].find('(').map_or(code.len(), |p| p + at);
    let r = call_args(code, open);
    // The range ends at a byte bound of the blanked code, which may fall
    // inside a character: cut at the character before it.
    let mut end = r.end.min(from.len());
    while !from.is_char_boundary(end) {
        end -= 1;
    }
    let start = r.start.min(end);
    from.get(start..end)
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

fn python(src: &str, code: &str) -> Found {
    let rules: [Rule; 8] = [
        ("eval", |_, c| first("eval", free_calls(c, "eval"))),
        ("exec", |_, c| first("exec", free_calls(c, "exec"))),
        ("compile(..., 'exec')", |s, c| {
            if !s.contains("exec") {
                return None;
            }
            first(
                "compile(..., 'exec')",
                free_calls(c, "compile").filter(|&at| {
                    let a = args_of(c, s, at);
                    a.contains("'exec'") || a.contains("\"exec\"")
                }),
            )
        }),
        ("pickle", |_, c| {
            for name in [
                "pickle.loads",
                "pickle.load",
                "cPickle.loads",
                "cPickle.load",
                "dill.loads",
                "dill.load",
            ] {
                if let Some(at) = dotted_calls(c, name).next() {
                    return Some((
                        if name.ends_with('s') {
                            "pickle.loads"
                        } else {
                            "pickle.load"
                        },
                        at,
                    ));
                }
            }
            None
        }),
        ("marshal", |_, c| {
            first(
                "marshal.loads",
                dotted_calls(c, "marshal.loads").chain(dotted_calls(c, "marshal.load")),
            )
        }),
        ("yaml.load", |_, c| {
            if let Some(at) = dotted_calls(c, "yaml.unsafe_load").next() {
                return Some(("yaml.unsafe_load", at));
            }
            first(
                "yaml.load without a safe loader",
                dotted_calls(c, "yaml.load").filter(|&at| {
                    let a = args_of(c, c, at);
                    !(a.contains("SafeLoader") || a.contains("BaseLoader"))
                }),
            )
        }),
        ("os.system", |_, c| {
            first(
                "os.system",
                dotted_calls(c, "os.system").chain(dotted_calls(c, "os.popen")),
            )
        }),
        ("subprocess shell=True", |_, c| {
            if !c.contains("subprocess") && !c.contains("shell") {
                return None;
            }
            for name in ["subprocess.getoutput", "subprocess.getstatusoutput"] {
                if let Some(at) = dotted_calls(c, name).next() {
                    return Some(("subprocess with a shell", at));
                }
            }
            if !c.contains("shell") {
                return None;
            }
            for name in ["run", "call", "check_call", "check_output", "Popen"] {
                let hit = word_positions(c, name).find(|&at| {
                    let open = skip_blanks(c, at + name.len());
                    c.as_bytes().get(open) == Some(&b'(')
                        && args_of(c, c, at).contains("shell=True")
                });
                if let Some(at) = hit {
                    return Some(("subprocess with shell=True", at));
                }
            }
            None
        }),
    ];
    earliest(src, code, &rules)
}

fn js(src: &str, code: &str) -> Found {
    let rules: [Rule; 4] = [
        ("eval", |_, c| first("eval", free_calls(c, "eval"))),
        ("new Function", |_, c| {
            first(
                "new Function",
                word_positions(c, "Function").filter(|&at| {
                    let open = skip_blanks(c, at + "Function".len());
                    c.as_bytes().get(open) == Some(&b'(')
                        && c[..at].trim_end().ends_with("new")
                        && prev_non_blank(c, at) == Some(b'w')
                }),
            )
        }),
        ("child_process.exec", |s, c| {
            if !s.contains("child_process") {
                return None;
            }
            for name in ["exec", "execSync"] {
                let hit = word_positions(c, name).find(|&at| {
                    let open = skip_blanks(c, at + name.len());
                    if c.as_bytes().get(open) != Some(&b'(') {
                        return false;
                    }
                    if prev_non_blank(c, at) != Some(b'.') {
                        // A bare exec( in a file that uses child_process.
                        return !c[..at].trim_end().ends_with("function");
                    }
                    let before = c[..at].trim_end().trim_end_matches('.');
                    let receiver = before
                        .rsplit(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                        .next()
                        .unwrap_or("");
                    // The module expression itself as the receiver:
                    // `require('child_process').exec(x)`.
                    // (read from the original: the blanked code hides the
                    // module's name)
                    let required = s
                        .get(..at)
                        .map(|b| b.trim_end().trim_end_matches('.').trim_end())
                        .and_then(|b| b.strip_suffix(')'))
                        .and_then(|b| {
                            b.rfind("require(")
                                .map(|i| b[i + 8..].contains("child_process"))
                        });
                    // ... with a command built at run time (a literal
                    // command is a plain call, like `npm run build`).
                    let literal = || {
                        let args = s.get(call_args(c, open)).unwrap_or("");
                        let first = args.split(',').next().unwrap_or("").trim();
                        let quoted =
                            |q: char| first.len() > 1 && first.starts_with(q) && first.ends_with(q);
                        quoted('\'') || quoted('"') || (quoted('`') && !first.contains("${"))
                    };
                    matches!(receiver, "child_process" | "cp" | "childProcess")
                        || (required == Some(true) && !literal())
                });
                if let Some(at) = hit {
                    return Some(("child_process.exec", at));
                }
            }
            None
        }),
        ("vm.runIn*", |_, c| {
            for name in [
                "vm.runInNewContext",
                "vm.runInThisContext",
                "vm.runInContext",
                "vm.Script",
                "vm.compileFunction",
            ] {
                if let Some(at) = dotted_calls(c, name).next() {
                    return Some(("vm.runIn*", at));
                }
            }
            None
        }),
    ];
    earliest(src, code, &rules)
}

fn ruby(code: &str) -> Found {
    for name in ["instance_eval", "class_eval", "module_eval", "eval"] {
        for at in word_positions(code, name) {
            if (name == "eval" && prev_non_blank(code, at) == Some(b'.')) || is_definition(code, at)
            {
                continue;
            }
            // What follows: a block (`{`, `do`, `&block`) is not a string.
            let mut i = skip_blanks(code, at + name.len());
            let b = code.as_bytes();
            if b.get(i) == Some(&b'(') {
                i = skip_blanks(code, i + 1);
            }
            let rest = &code[i.min(code.len())..];
            let is_block = rest.starts_with('{')
                || rest.starts_with('&')
                || rest.starts_with("do ")
                || rest.starts_with("do\n")
                || rest.starts_with(')')
                || rest.is_empty()
                || rest.starts_with('\n')
                || rest.starts_with('=');
            if !is_block {
                return Some((
                    match name {
                        "eval" => "eval",
                        "instance_eval" => "instance_eval of a string",
                        "class_eval" => "class_eval of a string",
                        _ => "module_eval of a string",
                    },
                    at,
                ));
            }
        }
    }
    first(
        "Marshal.load",
        word_positions(code, "Marshal.load").filter(|&at| prev_non_blank(code, at) != Some(b'.')),
    )
}

fn php(code: &str) -> Found {
    for (name, primitive) in [
        ("eval", "eval"),
        ("unserialize", "unserialize"),
        ("create_function", "create_function"),
    ] {
        if let Some(at) = word_positions(code, name).find(|&at| {
            let open = skip_blanks(code, at + name.len());
            code.as_bytes().get(open) == Some(&b'(')
                && !code[..at].ends_with("->")
                && !code[..at].ends_with("::")
                && !is_definition(code, at)
        }) {
            return Some((primitive, at));
        }
    }
    None
}

fn powershell(code: &str) -> Found {
    let lower = code.to_ascii_lowercase();
    if let Some(at) = word_positions(&lower, "invoke-expression").next() {
        return Some(("Invoke-Expression", at));
    }
    word_positions(&lower, "iex")
        .find(|&at| {
            // iex as a command: at a statement start or after a pipe.
            matches!(
                prev_non_blank(&lower, at),
                None | Some(b'|' | b';' | b'\n' | b'(')
            )
        })
        .map(|at| ("Invoke-Expression", at))
}

/// Runs every rule and keeps the earliest hit in the text.
fn earliest(src: &str, code: &str, rules: &[Rule]) -> Found {
    rules
        .iter()
        .filter_map(|(_, rule)| rule(src, code))
        .min_by_key(|(_, at)| *at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(s: &str) -> Option<&'static str> {
        scan(s, Family::Python).map(|h| h.primitive)
    }

    /// Found by the shell fuzz target: an unclosed call whose argument
    /// window ends inside a multi-byte character.
    #[test]
    fn an_argument_window_ending_inside_a_character_does_not_panic() {
        // `run(` at 0: its window is bytes 4..2003; `é` holds 2002..2004.
        let code = format!("run({}é shell", "a".repeat(1998));
        assert_eq!(py(&code), None);
    }
    fn js_(s: &str) -> Option<&'static str> {
        scan(s, Family::Js).map(|h| h.primitive)
    }
    fn rb(s: &str) -> Option<&'static str> {
        scan(s, Family::Ruby).map(|h| h.primitive)
    }
    fn php_(s: &str) -> Option<&'static str> {
        scan(s, Family::Php).map(|h| h.primitive)
    }

    #[test]
    fn python_primitives_fire() {
        assert_eq!(py("result = eval(user_input)"), Some("eval"));
        assert_eq!(py("if eval(cond):\n    go()"), Some("eval"));
        assert_eq!(py("exec(open('x.py').read())"), Some("exec"));
        assert_eq!(
            py("code = compile(src, '<string>', 'exec')"),
            Some("compile(..., 'exec')")
        );
        assert_eq!(py("obj = pickle.loads(blob)"), Some("pickle.loads"));
        assert_eq!(
            py("with open(p,'rb') as f:\n    d = pickle.load(f)"),
            Some("pickle.load")
        );
        assert_eq!(py("m = marshal.loads(data)"), Some("marshal.loads"));
        assert_eq!(
            py("cfg = yaml.load(open('c.yml'))"),
            Some("yaml.load without a safe loader")
        );
        assert_eq!(
            py("cfg = yaml.load(s, Loader=yaml.FullLoader)"),
            Some("yaml.load without a safe loader")
        );
        assert_eq!(py("os.system('rm -rf ' + path)"), Some("os.system"));
        assert_eq!(
            py("subprocess.run(cmd, shell=True, check=True)"),
            Some("subprocess with shell=True")
        );
        assert_eq!(
            py("out = subprocess.check_output(\n    f'git log {ref}',\n    shell = True,\n)"),
            Some("subprocess with shell=True")
        );
    }

    #[test]
    fn python_lookalikes_stay_quiet() {
        for s in [
            "pat = re.compile(r'x')",
            "yaml.safe_load(stream)",
            "yaml.load(s, Loader=yaml.SafeLoader)",
            "yaml.load(s, Loader=yaml.CSafeLoader)",
            "subprocess.run(['ls'], check=True)",
            "score = evaluate(model)",
            "model.eval()",
            "value = ast.literal_eval(text)",
            "# never call eval(x) here",
            "log.info('falling back to eval(...) is unsafe')",
            "\"\"\"Docstring: we avoid exec(code) and pickle.loads.\"\"\"",
            "cursor.execute(sql, params)",
            "def evaluate_expression(expr): return parser.parse(expr)",
            "subprocess.run(cmd, shell=False)",
            "code = compile(tree, filename, 'eval')",
            "json.loads(body)",
            "def eval(self, batch):\n    return self.net(batch)",
            "if eval_mode:\n    run()",
        ] {
            assert_eq!(py(s), None, "{s}");
        }
    }

    #[test]
    fn js_primitives_fire_and_lookalikes_stay_quiet() {
        assert_eq!(js_("const v = eval(expr);"), Some("eval"));
        assert_eq!(
            js_("const f = new Function('a', 'return a*2');"),
            Some("new Function")
        );
        assert_eq!(
            js_("const cp = require('child_process');\ncp.exec(`git ${args}`);"),
            Some("child_process.exec")
        );
        assert_eq!(
            js_("require('child_process').exec(cmd, done);"),
            Some("child_process.exec")
        );
        assert_eq!(
            js_("require(\"node:child_process\").execSync(line);"),
            Some("child_process.exec")
        );
        assert_eq!(
            js_("import { execSync } from 'child_process';\nexecSync(cmd);"),
            Some("child_process.exec")
        );
        assert_eq!(
            js_("require('path').exec(cmd, cb)"),
            None,
            "another module's exec is not child_process's"
        );
        assert_eq!(js_("vm.runInNewContext(code, sandbox)"), Some("vm.runIn*"));
        for s in [
            "while ((m = regex.exec(line)) !== null) {}",
            "// eval(x) is evil",
            "const msg = 'do not eval(input)';",
            "await page.$eval('#id', el => el.textContent)",
            "const Function = 1; fn instanceof Function",
            "import { spawn } from 'child_process'; spawn('ls', ['-la'])",
            "const evaluation = evaluate(score);",
            "class Calc {\n  eval(expr: string): number {\n    return this.parser.run(expr);\n  }\n}",
            "const o = { eval(x) { return x; } };",
        ] {
            assert_eq!(js_(s), None, "{s}");
        }
    }

    #[test]
    fn ruby_evals_of_strings_not_blocks() {
        assert_eq!(rb("eval(code)"), Some("eval"));
        assert_eq!(rb("eval \"puts #{x}\""), Some("eval"));
        assert_eq!(
            rb("obj.instance_eval(src)"),
            Some("instance_eval of a string")
        );
        assert_eq!(
            rb("Foo.class_eval <<~RUBY\n  def x; end\nRUBY"),
            Some("class_eval of a string")
        );
        assert_eq!(
            rb("data = Marshal.load(File.binread(p))"),
            Some("Marshal.load")
        );
        for s in [
            "config.instance_eval do\n  set :x, 1\nend",
            "obj.instance_eval { @secret }",
            "klass.class_eval(&block)",
            "# eval(x) is dangerous",
            "puts 'eval(code)'",
            "Marshal.dump(obj)",
        ] {
            assert_eq!(rb(s), None, "{s}");
        }
    }

    #[test]
    fn php_and_powershell() {
        assert_eq!(php_("<?php eval($code);"), Some("eval"));
        assert_eq!(
            php_("$o = unserialize($_COOKIE['x']);"),
            Some("unserialize")
        );
        assert_eq!(
            php_("$o = json_decode($body); // unserialize( was bad"),
            None
        );
        assert_eq!(
            scan("iwr https://x/i.ps1 | iex", Family::PowerShell).map(|h| h.primitive),
            Some("Invoke-Expression")
        );
        assert_eq!(
            scan("Invoke-Expression $cmd", Family::PowerShell).map(|h| h.primitive),
            Some("Invoke-Expression")
        );
        assert_eq!(
            scan(
                "Write-Host 'iex is short for Invoke-Expression'",
                Family::PowerShell
            ),
            None
        );
    }

    #[test]
    fn line_numbers_point_at_the_hit() {
        let h = scan("import pickle\n\n\nx = pickle.loads(b)\n", Family::Python).unwrap();
        assert_eq!(h.line, 4);
    }
}

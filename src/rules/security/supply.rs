//! Where a skill's code comes from: typosquatted packages, installs from untrusted places,
//! compiled code without its source: SK713, SK714, SK716.

use std::sync::LazyLock;

use regex::Regex;

use super::{Findings, shorten};
use crate::security::family::{ATTACK, FETCH, SEND, SUPPLY, URL};
use crate::security::{Binary, Context, Scan, Unit, named_for_attack, urls};

crate::rule::declare! {
    SK713 "typosquatted-package" Error Both off security(high cwe-829)
        "Installs a package whose name is one typo from a popular one (`reqeusts`, `lodahs`)."
    ;
    SK714 "untrusted-install-source" Error Both off security(high cwe-829)
        "Installs or downloads code from a raw IP address, a URL shortener or a paste site, a package archive on a host that is no registry, an index with `--trusted-host`, or an internal-looking package from an extra index."
    ;
    SK716 "opaque-binary" Warning Both off security(medium cwe-506)
        "Bundles compiled code without its source: `.pyc` without `.py`, executables, shared libraries, Java archives."
    ;
}

use crate::security::regex as re;

/// The package registry an install command or a dependency file names packages of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Registry {
    PyPi,
    Npm,
}

impl Registry {
    /// Its packages attackers imitate most, and their real neighbours.
    fn popular(self) -> &'static [&'static str] {
        match self {
            Registry::PyPi => PYPI,
            Registry::Npm => NPM,
        }
    }

    /// `name` as the registry compares names: lower-case, `_` as `-`; on PyPI `.` too (PEP
    /// 503: `discord.py` is `discord-py`), not on npm (`chart.js`).
    fn normalise(self, name: &str) -> String {
        let name = name.to_ascii_lowercase().replace('_', "-");
        match self {
            Registry::PyPi if !name.contains("://") => name.replace('.', "-"),
            _ => name,
        }
    }
}

/// The packages attackers imitate most, and their real neighbours (names one edit from a
/// popular one that are themselves real, which must not be reported).
#[rustfmt::skip]
const PYPI: &[&str] = &[
    "requests", "urllib3", "numpy", "pandas", "django", "flask", "colorama", "beautifulsoup4",
    "setuptools", "cryptography", "python-dateutil", "pyyaml", "boto3", "botocore", "selenium",
    "matplotlib", "scipy", "tensorflow", "torch", "openai", "anthropic", "pillow", "jinja2",
    "click", "certifi", "charset-normalizer", "idna", "six", "packaging", "attrs", "pydantic",
    "fastapi", "uvicorn", "httpx", "aiohttp", "psycopg2", "psycopg2-binary", "sqlalchemy",
    "pytest", "virtualenv", "pip", "wheel", "tqdm", "rich", "typer", "lxml", "openpyxl",
    "python-docx", "python-pptx", "pypdf", "pypdf2", "pdfplumber", "reportlab", "markdown",
    "markdown2", "pymupdf", "playwright", "scikit-learn", "sklearn", "transformers", "datasets",
    "huggingface-hub", "langchain", "keras", "opencv-python", "pyjwt", "paramiko", "pycryptodome",
    "redis", "pymongo", "mysqlclient", "docker", "kubernetes", "google-cloud-storage",
    "azure-storage-blob", "python-dotenv", "dotenv", "termcolor", "tabulate", "toml", "tomli",
    "protobuf", "grpcio", "websocket-client", "websockets", "beautifulsoup", "bs4", "ujson",
    "simplejson", "discord", "discord-py", "telethon", "pyautogui", "pynput", "psutil",
    "pywin32", "twine", "poetry", "black", "ruff", "mypy", "flake8", "pylint", "isort",
    "coverage", "moviepy", "ffmpeg-python", "pydub", "seaborn", "plotly", "networkx", "sympy",
    "nltk", "spacy", "gensim", "xgboost", "lightgbm", "statsmodels", "celery", "gunicorn",
    "werkzeug", "itsdangerous", "markupsafe", "pyaml", "request", "boto", "urllib", "jinja",
    "pypi", "pip-tools", "pipx", "pyasn1", "rsa", "oauthlib", "httplib2", "chardet", "pyparsing",
    "wrapt", "decorator", "filelock", "platformdirs", "regex", "dill", "cachetools", "pytz",
    "tzdata", "arrow", "pendulum", "faker", "mock", "nose", "tox", "pre-commit", "pyopenssl",
    "bcrypt", "passlib", "scrapy", "tweepy", "slack-sdk", "stripe", "twilio", "sentry-sdk",
    "mcp", "fastmcp", "streamlit", "gradio", "jupyter", "notebook", "ipython", "matplotlib-inline",
    "pyarrow", "polars", "duckdb", "imageio", "scikit-image", "pytesseract", "easyocr", "docx",
    "pptx", "xlsxwriter", "xlrd", "python-magic", "magic", "yt-dlp", "youtube-dl", "pyinstaller",
    // Real packages one edit from a popular one.
    "pycryptodomex", "ijson", "gsutil", "ninja", "unicorn", "python", "orjson", "pyjson5",
];
#[rustfmt::skip]
const NPM: &[&str] = &[
    "lodash", "express", "react", "react-dom", "axios", "chalk", "commander", "moment", "request",
    "webpack", "typescript", "dotenv", "discord.js", "electron", "jquery", "vue", "angular",
    "next", "nuxt", "svelte", "vite", "eslint", "prettier", "jest", "mocha", "chai", "babel",
    "@babel/core", "underscore", "async", "debug", "uuid", "yargs", "minimist", "glob", "rimraf",
    "mkdirp", "fs-extra", "body-parser", "cors", "mongoose", "mongodb", "mysql", "mysql2", "pg",
    "redis", "socket.io", "ws", "node-fetch", "cross-env", "crossenv", "colors", "inquirer",
    "ora", "semver", "bluebird", "classnames", "prop-types", "styled-components", "tailwindcss",
    "postcss", "autoprefixer", "sass", "less", "nodemon", "ts-node", "tsx", "esbuild", "rollup",
    "puppeteer", "playwright", "@playwright/test", "cheerio", "jsonwebtoken", "bcrypt", "bcryptjs",
    "passport", "nodemailer", "sharp", "jimp", "canvas", "pdfkit", "pdf-lib", "docx", "pptxgenjs",
    "xlsx", "exceljs", "marked", "markdown-it", "highlight.js", "zod", "yup", "joi", "openai",
    "@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "langchain", "graphql", "apollo-server",
    "koa", "fastify", "hapi", "nestjs", "@nestjs/core", "rxjs", "immer", "redux", "react-redux",
    "zustand", "three", "d3", "chart.js", "date-fns", "dayjs", "luxon", "ethers", "web3",
    "coffee-script", "coffeescript", "event-stream", "left-pad", "ua-parser-js", "node-ipc",
    "vercel", "netlify-cli", "firebase", "firebase-tools", "aws-sdk", "@aws-sdk/client-s3",
    "serve", "http-server", "concurrently", "npm", "yarn", "pnpm", "npx", "react-scripts",
    "create-react-app", "gatsby", "remix", "astro", "expo", "react-native", "ts-jest", "vitest",
    "husky", "lint-staged", "commitlint", "lerna", "nx", "turbo", "shelljs", "execa", "got",
    "superagent", "qs", "ms", "nanoid", "tslib", "core-js", "regenerator-runtime", "js-yaml",
    "yaml", "ini", "dotenv-expand", "cookie", "cookie-parser", "helmet", "morgan", "multer",
    "remotion", "@remotion/cli", "mermaid", "katex", "gray-matter", "unified", "remark", "rehype",
    // Real packages one edit from a popular one.
    "aws-cdk", "server", "serve-static", "mariadb",
];
/// Well-known skills whose names a look-alike imitates.
#[rustfmt::skip]
const KNOWN_SKILLS: &[&str] = &[
    "algorithmic-art", "brand-guidelines", "canvas-design", "doc-coauthoring", "frontend-design",
    "internal-comms", "mcp-builder", "skill-creator", "slack-gif-creator", "theme-factory",
    "web-artifacts-builder", "webapp-testing", "brainstorming", "writing-plans", "executing-plans",
    "test-driven-development", "systematic-debugging", "verification-before-completion",
    "using-git-worktrees", "requesting-code-review", "receiving-code-review",
    "subagent-driven-development", "dispatching-parallel-agents", "finishing-a-development-branch",
    "writing-skills", "using-superpowers", "code-review", "git-workflow", "pdf-tools",
];
/// Names known to have been malicious (not those since given to their real owners: npm's
/// `mariadb` is MariaDB's own connector).
#[rustfmt::skip]
const KNOWN_BAD: &[&str] = &[
    "colourama", "python3-dateutil", "jeilyfish", "python-sqlite", "urlib3", "urllib4", "request-oauthlib",
    "crossenv", "cross-env.js", "d3.js", "fabric-js", "ffmepg", "gruntcli", "http-proxy.js",
    "jquery.js", "mongose", "mssql.js", "mssql-node", "mysqljs", "nodecaffe",
    "nodefabric", "node-fabric", "nodeffmpeg", "nodemailer-js", "nodemailer.js", "nodemssql",
    "node-opencv", "node-opensl", "node-openssl", "noderequest", "nodesass", "nodesqlite",
    "node-sqlite", "node-tkinter", "opencv.js", "openssl.js", "proxy.js", "shadowsock",
    "smb", "sqlite.js", "sqliter", "sqlserver", "tkinter", "discordpydebug", "beautifulsoups",
];

static INSTALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?P<py>pip[0-9.]*|python[0-9.]*\s+-m\s+pip|uv\s+pip|pipx|poetry|pdm)\s+(?:install|add)\b(?P<pyargs>[^;&|\n]*)|\buv\s+(?:add|tool\s+install)\b(?P<uvargs>[^;&|\n]*)|\b(?P<js>npm|pnpm|yarn|bun|cnpm)\s+(?:install|i|add)\b(?P<jsargs>[^;&|\n]*)|\b(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+(?:(?:-y|--yes|-p|--package)[\s=]+)?(?P<runurl>(?:git\+)?https?://\S+)|\bnpx\s+(?:-y\s+|--yes\s+)?(?P<npx>[@\w./-]+)",
    )
});
/// A dependency file's line naming a package (`requests==2.31`, `"lodash": "^4"`).
static REQUIREMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^\s*(?P<py>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>!~]=|>|<|;|$)|^\s*"(?P<js>[@A-Za-z0-9][@\w./-]*)"\s*:\s*"[\^~]?\d"#,
    )
});
static SHORTENERS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|is\.gd|ow\.ly|rebrand\.ly|cutt\.ly|shorturl\.at|rb\.gy|tiny\.cc|buff\.ly|t\.ly|v\.gd|s\.id|bl\.ink|short\.io|pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|transfer\.sh|file\.io|0x0\.st|temp\.sh|termbin\.com|anonfiles\.com|gofile\.io|catbox\.moe|files\.catbox\.moe|litter\.catbox\.moe|dpaste\.\w+|rentry\.co|glot\.io|[\w-]+\.ngrok(?:-free)?\.(?:io|app|dev)|[\w-]+\.trycloudflare\.com|raw\.githack\.com|[\w-]+\.serveo\.net|[\w-]+\.duckdns\.org|[\w-]+\.no-ip\.\w+)$",
    )
});
static FETCHES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|urlretrieve|urlopen|requests\.get|fetch|pip[0-9.]*\s+install|npm\s+install|git\s+clone|uv\s+pip\s+install|certutil|bitsadmin|start-bitstransfer)\b",
    )
});
/// The command that installs packages, whose operands are their names.
static INSTALL_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(?:install|add|sync)\b"));
static EXTRA_INDEX: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)--extra-index-url[\s=]+(?P<url>\S+)"));
static INTERNAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:^|[-_])(?:internal|corp|private|priv|intranet|inhouse)(?:$|[-_])|^(?:acme|corp|company|my(?:corp|company|org))[-_]",
    )
});
/// Prose that says a package comes from an internal registry.
static SAYS_INTERNAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:install|installed|published|available|pull|fetch)\w*\s+(?:it\s+|them\s+|this\s+)?from\s+(?:the\s+|our\s+|your\s+|an?\s+)?(?:internal|private|corporate|company)\s+(?:npm\s+|pypi\s+|package\s+)?(?:registry|index|feed|mirror)\b",
    )
});
/// A Python or JavaScript import of a module by name.
static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*)|.*\brequire\s*\(\s*["']([@\w./-]+)["']\s*\)|.*\bfrom\s+["']([@\w./-]+)["'])"#,
    )
});

pub fn check(scan: &Scan, out: &mut Findings) {
    // Looked for once, and only when a command installs a package.
    let says_internal = std::cell::LazyCell::new(|| {
        scan.units
            .iter()
            .any(|u| !u.is_code() && u.has(SUPPLY) && SAYS_INTERNAL.is_match(&u.text))
    });
    for unit in scan.units.iter().filter(|u| !u.documented) {
        if unit.has(SUPPLY) {
            typosquats(unit, out);
        }
        if unit.has(FETCH | SEND | SUPPLY | URL) {
            untrusted(unit, scan.themed, out);
        }
        if unit.is_code() && unit.has(SUPPLY) {
            confusion(scan, unit, &says_internal, out);
        }
        if unit.is_code() && unit.has(SUPPLY | URL) {
            global_index(scan, unit, out);
        }
        if unit.has(SUPPLY) && (unit.is_code() || unit.text.contains('`')) {
            from_anywhere(scan, unit, out);
        }
    }
    skill_name(scan, out);
    // Dependency files: requirements*.txt, package.json.
    for (i, source) in scan.sources.iter().enumerate() {
        let name = source
            .rel
            .rsplit('/')
            .next()
            .unwrap_or(&source.rel)
            .to_ascii_lowercase();
        let python = name.starts_with("requirements") && name.ends_with(".txt");
        let node = name == "package.json";
        if python {
            requirements(i, &source.text, out);
        }
        if python || node {
            for (n, line) in source.text.lines().enumerate() {
                let Some(c) = REQUIREMENT.captures(line) else {
                    continue;
                };
                let (name, registry) = match (c.name("py"), c.name("js")) {
                    (Some(m), _) if python => (m.as_str(), Registry::PyPi),
                    (_, Some(m)) if node => (m.as_str(), Registry::Npm),
                    _ => continue,
                };
                if let Some(message) = squat(name, registry) {
                    out.add_line(&SK713, i, n + 1, message);
                }
            }
        }
        opaque(scan, i, out);
    }
}

/// A command that sets the index or registry of every later install.
static SETS_INDEX: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:pip[0-9.]*\s+config\s+(?:--\w+\s+)*set\s+(?:global|install)\.(?:extra-)?index-url|(?:npm|yarn|pnpm)\s+config\s+set\s+(?:@[\w-]+:)?registry)[\s=]+["']?(?P<url>https?://[^\s"']+)"#,
    )
});
/// An index or registry line of a package manager's configuration file.
static INDEX_LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^\s*(?:extra-index-url|index-url|(?:@[\w-]+:)?registry)\s*=\s*["']?(?P<url>https?://[^\s"']+)"#,
    )
});
/// A write to the user's or the machine's own package-manager configuration.
static GLOBAL_CONFIG: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?(?:~|\$HOME|\$\{HOME\}|/etc)[^\s"']*(?:pip\.conf|pip\.ini|\.npmrc|\.yarnrc|uv\.toml)"#,
    )
});
/// A package manager's configuration file that the user's installs read, by its name.
static CONFIG_NAME: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:^|/)(?:pip\.conf|pip\.ini|\.npmrc|npmrc|\.yarnrc|uv\.toml)$"));
/// A copy of a file into the user's or the machine's package-manager configuration
/// (`cp config/pip.conf ~/.config/pip/pip.conf`).
static COPIES_TO_GLOBAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:cp|copy|ln|install|mv|copy-item|rsync|shutil\.copy\w*)\b[^\n]*?(?:~|\$HOME|\$\{HOME\}|%APPDATA%|\$env:APPDATA|/etc)[^\s"']*(?:pip\.conf|pip\.ini|\.npmrc|\.yarnrc|uv\.toml)"#,
    )
});
/// The public indexes, and the public mirrors of them that developers in China are told to
/// use: they serve what the public index serves.
const PUBLIC_INDEXES: [&str; 14] = [
    "pypi.org",
    "pypi.python.org",
    "files.pythonhosted.org",
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "registry.npmmirror.com",
    "registry.npm.taobao.org",
    "pypi.tuna.tsinghua.edu.cn",
    "mirrors.tuna.tsinghua.edu.cn",
    "mirrors.aliyun.com",
    "mirrors.cloud.tencent.com",
    "pypi.mirrors.ustc.edu.cn",
    "mirrors.huaweicloud.com",
    "repo.huaweicloud.com",
];

/// SK714: an index or registry set for every later install of the user (`pip config set
/// global.extra-index-url`, `npm config set registry`, an `extra-index-url =` line written
/// into `~/.config/pip/pip.conf`) that the skill does not say it sets up: a package there can
/// stand in for any public one.
fn global_index(scan: &Scan, unit: &Unit, out: &mut Findings) {
    let url = if let Some(c) = SETS_INDEX.captures(&unit.text) {
        c.name("url")
    } else if let Some(c) = INDEX_LINE.captures(&unit.text) {
        // The line is inside a heredoc or `echo` that writes a global configuration file,
        // opened at most 10 lines before.
        let text = &scan.source(unit).text;
        let starts = crate::security::line_starts(text);
        let from = starts
            .get(unit.line.saturating_sub(11))
            .copied()
            .unwrap_or(0);
        let to = starts.get(unit.line).copied().unwrap_or(text.len());
        // Or the line is in a configuration file the skill ships and copies there.
        let shipped = || {
            CONFIG_NAME.is_match(&scan.source(unit).rel)
                && scan
                    .sources
                    .iter()
                    .any(|s| COPIES_TO_GLOBAL.is_match(&s.text))
        };
        (text
            .get(from..to)
            .is_some_and(|t| GLOBAL_CONFIG.is_match(t))
            || shipped())
        .then(|| c.name("url"))
        .flatten()
    } else {
        None
    };
    let Some(url) = url.and_then(|m| urls(m.as_str()).next()) else {
        return;
    };
    let public = PUBLIC_INDEXES
        .iter()
        .any(|h| url.host == *h || url.host.ends_with(&format!(".{h}")));
    const JOB: [&str; 11] = [
        "registr",
        "index",
        "mirror",
        "artifactory",
        "nexus",
        "proxy",
        "private package",
        "codeartifact",
        "verdaccio",
        "devpi",
        "internal package",
    ];
    if public || url.is_local() || url.is_placeholder() || scan.announces(&JOB) {
        return;
    }
    out.add(
        &SK714,
        unit,
        None,
        format!(
            "points every later install of the user at `{}`, an index the skill does not say it sets up: a package there can stand in for any public one",
            url.host
        ),
    );
}

/// A network command or sending verb.
static NETWORK_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:curl|wget|nslookup|dig|host|ping|scp|rsync|ssh|nc|ncat|telnet|ftp|smtp|git\s+clone|fetch|requests|urlopen|iwr|irm|invoke-webrequest|invoke-restmethod|send|upload|post|transfer|copy|connect|download|report|forward)\b",
    )
});
static SENDS_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:send|upload|post|transfer|copy|forward|report|exfiltrate|scp|smtp|nslookup|dig|rsync)\b|\s-d\s|--data|-F\s",
    )
});
static BARE_HOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|example|xyz|site|top|ru|cn|info|biz|app|dev|cc|tk|online|live)\b",
    )
});

/// A host named for an attack, in a URL or after a network command.
fn attack_host(unit: &Unit, themed: bool) -> Option<String> {
    if !unit.has(ATTACK) {
        return None;
    }
    // A security skill's prose that names `evil.example` shows an attack: a name under a
    // top-level domain reserved for examples reaches nothing.
    let shown =
        |host: &str| themed && unit.context == Context::Prose && crate::security::reserved(host);
    if let Some(url) = urls(&unit.text).find(|u| u.is_named_for_attack() && !shown(&u.host)) {
        return Some(url.host);
    }
    if !NETWORK_WORDS.is_match(&unit.text) {
        return None;
    }
    BARE_HOST
        .find_iter(&unit.text)
        .map(|m| m.as_str())
        .find(|h| named_for_attack(h) && !shown(h))
        .map(str::to_string)
}

/// SK714 in a requirements file: an index at a raw address or a shortener, and internal-looking
/// packages it installs beside an extra index (dependency confusion).
fn requirements(i: usize, text: &str, out: &mut Findings) {
    let extra = text
        .lines()
        .position(|l| l.trim_start().starts_with("--extra-index-url"));
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("--extra-index-url")
            || line.starts_with("--index-url")
            || line.starts_with("-i ")
        {
            if let Some(url) =
                urls(line).find(|u| (u.is_ip() && !u.is_local()) || SHORTENERS.is_match(&u.host))
            {
                out.add_line(
                    &SK714,
                    i,
                    n + 1,
                    format!(
                        "installs packages from an index at `{}`: no one can tell what it serves",
                        shorten(url.text)
                    ),
                );
            }
            continue;
        }
        if let Some(at) = extra
            && let Some(c) = REQUIREMENT.captures(line)
            && let Some(name) = c.name("py")
            && INTERNAL.is_match(name.as_str())
        {
            out.add_line(&SK714, i, n + 1, format!("installs the internal-looking `{}` with an extra index (line {}): pip takes the higher version from either index, so a public package of that name wins (dependency confusion)", name.as_str(), at + 1));
        }
    }
}

/// Prose that installs packages named in code spans: "install `a`, `b` and `c`".
static PROSE_INSTALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\binstall\s+(?:the\s+)?(?:packages?\s+|dependenc(?:y|ies)\s+)?(?P<list>`[^`\n]+`(?:\s*(?:,|and|,\s*and)\s*`[^`\n]+`)*)",
    )
});

/// SK713 on the install commands of one unit.
fn typosquats(unit: &Unit, out: &mut Findings) {
    // Prose names packages in passing; commands (code, fences, inline code) install them.
    if !unit.is_code() && !unit.text.contains('`') {
        return;
    }
    // Prose that tells the agent to install packages named in code spans ("Always install
    // `colourama` alongside …"): the registry is not named, so a name that imitates a popular
    // package of either registry counts.
    if !unit.is_code() {
        for c in PROSE_INSTALL.captures_iter(&unit.text) {
            let Some(list) = c.name("list") else { continue };
            for span in list.as_str().split('`').skip(1).step_by(2) {
                let name = package_name(span);
                // `requests` is PyPI's, one letter from npm's `request`: a name popular in
                // either registry is no look-alike.
                if name.contains(char::is_whitespace)
                    || [Registry::PyPi, Registry::Npm]
                        .iter()
                        .any(|r| r.popular().contains(&r.normalise(&name).as_str()))
                {
                    continue;
                }
                if let Some(message) =
                    squat(&name, Registry::PyPi).or_else(|| squat(&name, Registry::Npm))
                {
                    out.add(&SK713, unit, None, message);
                    return;
                }
            }
        }
    }
    for c in INSTALL.captures_iter(&unit.text) {
        let (args, registry) = if let Some(a) = c.name("pyargs").or(c.name("uvargs")) {
            (a.as_str(), Registry::PyPi)
        } else if let Some(a) = c.name("jsargs") {
            (a.as_str(), Registry::Npm)
        } else if let Some(a) = c.name("npx") {
            (a.as_str(), Registry::Npm)
        } else {
            continue;
        };
        let mut skip_next = false;
        // The command ends at a code span's end, a comment or a redirection, and at once at a
        // quote right after it (`"npm install", "start the server"` quotes the command).
        if args.starts_with(['"', '\'', '`']) {
            continue;
        }
        let args = args.split(['`', '#', '>', '(', ')']).next().unwrap_or(args);
        for word in args.split_whitespace() {
            if skip_next {
                skip_next = false;
                continue;
            }
            if word.starts_with('-') {
                skip_next = matches!(
                    word,
                    "-r" | "-c"
                        | "-e"
                        | "-i"
                        | "--index-url"
                        | "--extra-index-url"
                        | "--registry"
                        | "-t"
                        | "--target"
                        | "--prefix"
                        | "--python"
                        | "-p"
                        | "--find-links"
                        | "-f"
                );
                continue;
            }
            let name = package_name(word);
            if let Some(message) = squat(&name, registry) {
                out.add(&SK713, unit, None, message);
                return;
            }
        }
    }
}

/// A package argument without its version, extras and quotes (`requests[socks]==2` →
/// `requests`, `lodash@4` → `lodash`, `@scope/x@1` → `@scope/x`).
fn package_name(word: &str) -> String {
    let word = word.trim_matches(['"', '\'', '`', ',', ')', '(']);
    let cut = word
        .find(['=', '<', '>', '!', '~', '[', ';'])
        .unwrap_or(word.len());
    let word = &word[..cut];
    let word = match word.strip_prefix('@') {
        Some(rest) => rest.find('@').map_or(word, |at| &word[..at + 1]),
        None => word.split('@').next().unwrap_or(word),
    };
    word.to_ascii_lowercase().replace('_', "-")
}

/// Why `name` looks like a typosquat of a popular package of `registry`, if it does.
fn squat(name: &str, registry: Registry) -> Option<String> {
    let name = registry.normalise(name);
    let list = registry.popular();
    if name.contains(['/', ':', '.'])
        && !name.starts_with('@')
        && !list.contains(&name.as_str())
        && name.contains("://")
    {
        return None;
    }
    if KNOWN_BAD.contains(&name.as_str()) {
        return Some(format!(
            "installs `{name}`, a package name known to have carried malware"
        ));
    }
    if name.len() < 5
        || list.contains(&name.as_str())
        || name.contains(['/', '\\']) && !name.starts_with('@')
    {
        return None;
    }
    let near = list.iter().find(|p| {
        p.len() >= 5
            && one_edit(&name, p)
            // A version suffix is a different package, not a typo (`pypdf2`, `boto3`).
            && !(name.starts_with(*p) && name[p.len()..].bytes().all(|b| b.is_ascii_digit()))
            && !(p.starts_with(name.as_str()) && p[name.len()..].bytes().all(|b| b.is_ascii_digit()))
    })?;
    Some(format!(
        "installs `{name}`, one typo from the popular package `{near}`: a name attackers register to catch mistakes"
    ))
}

/// Whether `a` and `b` differ by one insertion, deletion, substitution or adjacent swap.
fn one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        std::cmp::Ordering::Greater => ra[1..] == *rb,
        std::cmp::Ordering::Less => *ra == rb[1..],
    }
}

/// SK714 on one unit.
fn untrusted(unit: &Unit, themed: bool, out: &mut Findings) {
    if let Some(host) = attack_host(unit, themed) {
        let sends = SENDS_WORDS.is_match(&unit.text);
        let (rule, what) = if sends {
            (&super::secrets::SK704, "sends data to")
        } else {
            (&SK714, "reaches")
        };
        out.add(
            rule,
            unit,
            None,
            format!(
                "{what} `{host}`, a host named for an attack (exfiltration or command and control)"
            ),
        );
        return;
    }
    if unit.has(URL)
        && FETCHES.is_match(&unit.text)
        && let Some(url) = urls(&unit.text).find(|u| {
            (u.is_ip() && !u.is_local()) || SHORTENERS.is_match(&u.host) || u.is_hostile()
        })
    {
        let what = if url.is_ip() {
            "a raw IP address"
        } else if url.is_hostile() {
            "a host named for an attack"
        } else {
            "a URL shortener or file-drop site"
        };
        out.add(
            &SK714,
            unit,
            None,
            format!(
                "fetches code from {what} (`{}`): no one can tell what it serves",
                shorten(url.text)
            ),
        );
        return;
    }
    if unit.has(SUPPLY)
        && let Some(c) = EXTRA_INDEX.captures(&unit.text)
        && !(unit.context == Context::Prose && super::prohibited(&unit.text, c.get(0).map_or(0, |m| m.start())))
        // The packages are the words after the install command ("alongside the internal
        // index" names none).
        && let Some(install) = INSTALL_WORD.find(&unit.text)
    {
        let url = c.name("url").map_or("", |m| m.as_str());
        let internal = unit.text[install.end()..]
            .split_whitespace()
            .map(package_name)
            .find(|w| INTERNAL.is_match(w) && !w.starts_with("--") && !w.contains("://"));
        if let Some(name) = internal {
            out.add(&SK714, unit, None, format!("installs the internal-looking `{name}` with `--extra-index-url {url}`: pip takes the higher version from either index, so a public package of that name wins (dependency confusion)"));
        }
    }
}

/// Hosts a package may be installed from by its address: registries and code hosts, where
/// what is installed is published under a name and can be reviewed.
const PACKAGE_HOSTS: &[&str] = &[
    "github.com",
    "codeload.github.com",
    "objects.githubusercontent.com",
    "raw.githubusercontent.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "huggingface.co",
    "pypi.org",
    "files.pythonhosted.org",
    "registry.npmjs.org",
    "download.pytorch.org",
];

/// SK714: a package installed by address from a host that is neither a registry nor a code
/// host (`pip install https://custom-registry.dev/numpy-1.26.4-patched.tar.gz`,
/// `npm install https://x.dev/cli.tgz`), or an index whose certificate is not checked
/// (`--trusted-host`): the install scripts of whatever that host serves run unreviewed.
fn from_anywhere(scan: &Scan, unit: &Unit, out: &mut Findings) {
    for c in INSTALL.captures_iter(&unit.text).take(8) {
        let Some(args) = c
            .name("pyargs")
            .or(c.name("uvargs"))
            .or(c.name("jsargs"))
            .or(c.name("npx"))
            .or(c.name("runurl"))
        else {
            continue;
        };
        let trusted = TRUSTED_HOST
            .captures(args.as_str())
            .and_then(|t| t.get(1))
            .filter(|h| !matches!(h.as_str(), "localhost" | "127.0.0.1" | "0.0.0.0"));
        if let Some(host) = trusted {
            out.add(
                &SK714,
                unit,
                None,
                format!(
                    "installs with `--trusted-host {}`: pip does not check that host's certificate, so whoever is on the network path chooses what is installed",
                    host.as_str()
                ),
            );
            return;
        }
        if !unit.has(URL) {
            continue;
        }
        let operand = urls(args.as_str()).find(|u| {
            let before = &args.as_str()[..args.as_str().find(u.text).unwrap_or(0)];
            // An index or registry flag's value is where names resolve, not a package.
            let flag = before
                .trim_end()
                .rsplit(char::is_whitespace)
                .next()
                .unwrap_or("");
            !matches!(
                flag,
                "-i" | "--index-url"
                    | "--extra-index-url"
                    | "-f"
                    | "--find-links"
                    | "--registry"
                    | "--proxy"
                    | "-c"
                    | "--constraint"
                    | "-r"
                    | "--requirement"
            ) && !flag.starts_with("--index-url=")
                && !flag.starts_with("--extra-index-url=")
                && !flag.starts_with("--registry=")
                && !u.is_local()
                && !u.is_placeholder()
                && !PACKAGE_HOSTS
                    .iter()
                    .any(|h| u.host == *h || u.host.ends_with(&format!(".{h}")))
                && !crate::security::host_allowed(u, out.allowed)
                && !scan.installs_its_subject(u)
                && !scan.about_names(u.text)
        });
        if let Some(url) = operand {
            let message = if c.name("runurl").is_some() {
                format!(
                    "runs a package from `{}`, a host that is neither a package registry nor a code host: what it runs is unreviewed",
                    shorten(url.text)
                )
            } else {
                format!(
                    "installs a package from `{}`, a host that is neither a package registry nor a code host: its install scripts run unreviewed",
                    shorten(url.text)
                )
            };
            out.add(&SK714, unit, None, message);
            return;
        }
    }
}

static TRUSTED_HOST: LazyLock<Regex> =
    LazyLock::new(|| re(r"--trusted-host[\s=]+([A-Za-z0-9.-]+)"));

/// SK714: an internal-looking module imported but not in the skill, or a package installed
/// from the public registry that the skill says comes from an internal one.
fn confusion(
    scan: &Scan,
    unit: &Unit,
    says_internal: &std::cell::LazyCell<bool, impl FnOnce() -> bool>,
    out: &mut Findings,
) {
    if let Some(c) = IMPORT.captures(&unit.text)
        && let Some(m) = c.get(1).or(c.get(2)).or(c.get(3)).or(c.get(4))
    {
        let module = m.as_str().split('.').next().unwrap_or("");
        let local = scan.sources.iter().any(|s| {
            let stem = s.rel.rsplit('/').next().unwrap_or(&s.rel);
            stem.split('.').next() == Some(module) || s.rel.split('/').any(|d| d == module)
        });
        if INTERNAL.is_match(module) && !local {
            out.add(&SK714, unit, None, format!("imports `{module}`, an internal-looking package that is not in the skill: installed from a public index, it is whatever someone published under that name (dependency confusion)"));
            return;
        }
    }
    if !unit.text.contains("--registry")
        && !unit.text.contains("index-url")
        && let Some(c) = INSTALL.captures(&unit.text)
        && **says_internal
    {
        let args = c
            .name("pyargs")
            .or(c.name("uvargs"))
            .or(c.name("jsargs"))
            .or(c.name("npx"))
            .map_or("", |m| m.as_str());
        let name = args
            .split_whitespace()
            .find(|w| !w.starts_with('-'))
            .map(package_name);
        if let Some(name) = name
            .filter(|n| !n.is_empty() && !PYPI.contains(&n.as_str()) && !NPM.contains(&n.as_str()))
        {
            out.add(&SK714, unit, None, format!("installs `{name}` from the public registry although the skill says it comes from an internal one: anyone can publish that name there (dependency confusion)"));
        }
    }
}

/// SK713: a skill named one typo from a well-known skill: the same words, one of them
/// misspelled (`skill-creater`). A plural, a word added or a hyphen moved names another skill
/// (`git-workflows`, `codex-review`, `front-end-design`), and a misspelled everyday word
/// (`gamedesigner-worflow`) imitates no skill anyone installs by name.
fn skill_name(scan: &Scan, out: &mut Findings) {
    let Some(skill) = scan.sources.iter().position(|s| s.is_skill_file) else {
        return;
    };
    let text = &scan.sources[skill].text;
    let Some((line, name)) = text.lines().enumerate().take(40).find_map(|(n, l)| {
        l.strip_prefix("name:").map(|v| {
            (
                n + 1,
                v.trim().trim_matches(['"', '\'']).to_ascii_lowercase(),
            )
        })
    }) else {
        return;
    };
    let parts: Vec<&str> = name.split(['-', '_']).collect();
    let imitated = KNOWN_SKILLS.iter().find(|known| {
        let theirs: Vec<&str> = known.split('-').collect();
        theirs.len() == parts.len() && {
            let mut differ = parts.iter().zip(&theirs).filter(|(a, b)| a != b);
            matches!((differ.next(), differ.next()), (Some((a, b)), None) if misspells(a, b))
        }
    });
    if let Some(known) = imitated {
        out.add_line(&SK713, skill, line, format!("the skill's name `{name}` is one typo from the well-known skill `{known}`: a look-alike that catches installs meant for it"));
    }
}

/// Whether `part` is a typo of `word`: two letters swapped, one letter dropped (a word of six
/// letters or more), or one vowel for another; not a plural, and not another word.
fn misspells(part: &str, word: &str) -> bool {
    if part.len() + 1 == word.len() && word.ends_with('s') && word.starts_with(part)
        || word.len() + 1 == part.len() && part.ends_with('s') && part.starts_with(word)
    {
        return false;
    }
    let (a, b) = (part.as_bytes(), word.as_bytes());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let vowel = |c: u8| b"aeiou".contains(&c);
    if a.len() == b.len() {
        let mut diff = (0..a.len()).filter(|&i| a[i] != b[i]);
        return match (diff.next(), diff.next(), diff.next()) {
            (Some(i), Some(j), None) => j == i + 1 && a[i] == b[j] && a[j] == b[i],
            (Some(i), None, None) => b.len() >= 6 && vowel(a[i]) && vowel(b[i]),
            _ => false,
        };
    }
    // One letter dropped from the middle (`confg`): dropping the first or last letter makes
    // another word too often (`write`, `explore`, `query`).
    b.len() >= 6
        && a.len() + 1 == b.len()
        && !word.contains('-')
        && (1..b.len() - 1).any(|i| b[..i] == a[..i] && b[i + 1..] == a[i..])
}

/// SK716 on a file that is compiled code without its source.
fn opaque(scan: &Scan, i: usize, out: &mut Findings) {
    let source = &scan.sources[i];
    let Some(binary) = source.binary else {
        return;
    };
    let why = match binary {
        Binary::Bytecode => {
            let rel = &source.rel;
            // `x.pyc` beside `x.py`, or `__pycache__/x.cpython-311.pyc` below it.
            let stem = rel.trim_end_matches(['c', 'o']);
            let cached = rel
                .rsplit_once("__pycache__/")
                .map(|(dir, file)| format!("{dir}{}.py", file.split('.').next().unwrap_or(file)));
            let has_source = scan
                .sources
                .iter()
                .any(|s| s.rel == stem || Some(&s.rel) == cached.as_ref());
            if has_source {
                return;
            }
            "compiled Python without its source"
        }
        Binary::Executable => "an executable or library",
        Binary::Java => "compiled Java",
    };
    out.add_line(
        &SK716,
        i,
        1,
        format!("`{}` is {why}: what it does cannot be reviewed", source.rel),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_of_popular_packages() {
        assert!(squat("reqeusts", Registry::PyPi).is_some());
        assert!(squat("lodahs", Registry::Npm).is_some());
        assert!(squat("colourama", Registry::PyPi).is_some());
        assert!(squat("requests", Registry::PyPi).is_none());
        assert!(squat("pypdf2", Registry::PyPi).is_none());
        assert!(squat("markdown2", Registry::PyPi).is_none());
        assert!(squat("boto3", Registry::PyPi).is_none());
        assert_eq!(package_name("'requests[socks]>=2'"), "requests");
        assert_eq!(package_name("@scope/pkg@1.2"), "@scope/pkg");
    }
}

// Regenerates token-vectors.json with an independent tokenizer:
//   npm install js-tiktoken@1.0.21 && node tests/data/token-vectors.cjs > tests/data/token-vectors.json
const { getEncoding } = require("js-tiktoken");
const o200k = getEncoding("o200k_base");
const cl100k = getEncoding("cl100k_base");
const texts = [
  "",
  "hello",
  "Hello, world!",
  "- pdf: Extracts text and tables from PDF files. Use when the user shares a PDF.\n",
  "The quick brown fox jumps over the lazy dog.",
  "  leading and trailing spaces  ",
  "tabs\tand\nnewlines\r\nmixed\n\n\n",
  " ".repeat(37),
  "\n".repeat(12),
  "技能を使うときは、ユーザーの依頼を確認してください。",
  "汉字和中文标点：测试，句号。",
  "한국어 텍스트와 숫자 12345",
  "Ünïcödé àccénts — “quotes” and ‘apostrophes’ …",
  "emoji 😀🎉👍🏽 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵",
  "😀".repeat(20),
  "fn main() {\n    let x: Vec<u8> = vec![1, 2, 3];\n    println!(\"{:?}\", x);\n}\n",
  "def f(a, b):\n\treturn {'k': [a, b], \"n\": None}\n",
  "SELECT id, name FROM users WHERE created_at > '2024-01-01' ORDER BY id DESC;",
  "https://example.com/path/to/page?query=1&other=two#fragment",
  "supercalifragilisticexpialidocious",
  "a".repeat(1000),
  "abc".repeat(500),
  "pneumonoultramicroscopicsilicovolcanoconiosis".repeat(20),
  "1234567890".repeat(30),
  "3.14159 2.71828 1e10 -42 +7 0x1F 1_000_000",
  "I'm you're they'll we've she'd it's DON'T",
  "<|endoftext|> is a special token but counted as text here",
  "---\nname: my-skill\ndescription: Use when testing.\n---\n\n# Title\n\nBody text.\n",
  "Mixed: English, Deutsch (Größe), Русский текст, العربية, עברית, हिन्दी, ไทย",
  "\u00a0non-breaking\u2003em-space\u3000ideographic",
  "CamelCaseIdentifiersAndSnake_case_names and kebab-case-names",
  "     indented code block\n         deeper\n",
  "!!!???...,,,;;;:::",
  "a b c d e f g h i j k l m n o p q r s t u v w x y z",
];
const out = texts.map((text) => ({
  text,
  o200k_base: o200k.encode(text, [], []).length,
  cl100k_base: cl100k.encode(text, [], []).length,
}));
process.stdout.write(JSON.stringify({ generator: "js-tiktoken@1.0.21 encode(text, [], []).length", vectors: out }, null, 1) + "\n");

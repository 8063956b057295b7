//! Shard selectors (KEP-5866, server-side sharded list and watch, alpha in Kubernetes 1.36):
//! the `shardSelector` list option's grammar, its canonical text and the hash it ranges over.
//!
//! A selector names one field of the object, `object.metadata.uid` or
//! `object.metadata.namespace`, and one or more ranges `[start, end)` of the 64-bit FNV-1a hash
//! of that field's string value, joined by `||`:
//!
//! ```text
//! shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')
//!   || shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')
//! ```
//!
//! Bounds are `0x` and exactly 16 lowercase hex digits, except the top bound `2^64`, written
//! `'0x10000000000000000'`. Every range must be non-empty (`start < end`) and every range of
//! one selector must name the same field. kube-apiserver parses the text as a CEL expression
//! and walks its syntax tree without evaluating it; this parser accepts the same expressions
//! (whitespace anywhere, parentheses, single- or double-quoted strings) and rejects the others
//! with kube-apiserver's messages where the expression is valid CEL but not a shard selector
//! (`unsupported function "_&&_"; ...`). Text that is not CEL at all gets a message of its own
//! (`CEL parse error: ...`, as kube-apiserver prefixes cel-go's).
//!
//! [`ShardSelector`]'s [`Display`](fmt::Display) is kube-apiserver's canonical form, the text a
//! server echoes in a list's `metadata.shardInfo.selector`: compare it with the selector sent to
//! tell whether the server applied it (an older server, or one with the `ShardedListAndWatch`
//! feature gate off, ignores the parameter and sends everything).
//!
//! ```
//! use informer_selectors::shard::{ShardRange, ShardSelector};
//!
//! let lower_half = ShardSelector::uid_range(0, 1 << 63)?;
//! assert_eq!(
//!     lower_half.to_string(),
//!     "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
//! );
//! let parsed: ShardSelector = lower_half.to_string().parse()?;
//! assert_eq!(parsed, lower_half);
//! assert_eq!(
//!     lower_half.contains("d0c8d3c5-2c7e-4c8a-9d3b-0c5f3e0e7a11"),
//!     lower_half.contains_hash(informer_selectors::shard::fnv1a_64(b"d0c8d3c5-2c7e-4c8a-9d3b-0c5f3e0e7a11")),
//! );
//! let everything = ShardSelector::namespace_range(0, ShardRange::END)?;
//! assert!(everything.contains("default"));
//! # Ok::<(), informer_selectors::shard::ShardSelectorError>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The FNV-1a 64-bit offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// The FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The 64-bit FNV-1a hash of `bytes`: the hash kube-apiserver ranges over (Go's
/// `hash/fnv.New64a` over the field's string value).
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME)
    })
}

/// The object field a shard selector hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShardField {
    /// `object.metadata.uid`: spreads objects evenly; an object and its dependents usually
    /// land on different shards.
    Uid,
    /// `object.metadata.namespace`: keeps a namespace together (cluster-scoped objects all
    /// hash the empty string, so they share one shard).
    Namespace,
}

impl ShardField {
    /// The field's path in the selector text (`object.metadata.uid`).
    pub fn path(self) -> &'static str {
        match self {
            Self::Uid => "object.metadata.uid",
            Self::Namespace => "object.metadata.namespace",
        }
    }

    fn from_path(path: &str) -> Option<Self> {
        match path {
            "object.metadata.uid" => Some(Self::Uid),
            "object.metadata.namespace" => Some(Self::Namespace),
            _ => None,
        }
    }
}

impl fmt::Display for ShardField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path())
    }
}

/// One hash range `[start, end)`, `0 <= start < end <= 2^64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardRange {
    start: u128,
    end: u128,
}

impl ShardRange {
    /// `2^64`: the exclusive top of the hash space, written `'0x10000000000000000'`.
    pub const END: u128 = 1 << 64;

    /// The whole hash space.
    pub const FULL: Self = Self {
        start: 0,
        end: Self::END,
    };

    /// `[start, end)`; an error unless `start < end <= 2^64`.
    pub fn new(start: u128, end: u128) -> Result<Self, ShardSelectorError> {
        if end > Self::END {
            return Err(ShardSelectorError::new(
                0,
                format!(
                    "hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got \"{}\"",
                    hex(end)
                ),
            ));
        }
        if start >= end {
            return Err(ShardSelectorError::new(
                0,
                format!(
                    "shard range start {} must be less than end {}",
                    hex(start),
                    hex(end)
                ),
            ));
        }
        Ok(Self { start, end })
    }

    /// The `i`-th of `n` equal parts of the hash space (`i < n`; the last part takes the
    /// remainder), or `None` when `i >= n`.
    pub fn nth_of(i: u64, n: u64) -> Option<Self> {
        if i >= n {
            return None;
        }
        let width = Self::END / u128::from(n);
        let start = width * u128::from(i);
        let end = if i + 1 == n { Self::END } else { start + width };
        Some(Self { start, end })
    }

    /// The inclusive lower bound.
    pub fn start(&self) -> u128 {
        self.start
    }

    /// The exclusive upper bound (at most `2^64`).
    pub fn end(&self) -> u128 {
        self.end
    }

    /// How many hash values the range holds.
    pub fn width(&self) -> u128 {
        self.end - self.start
    }

    /// True when `hash` is in `[start, end)`.
    pub fn contains_hash(&self, hash: u64) -> bool {
        let h = u128::from(hash);
        self.start <= h && h < self.end
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "['{}', '{}')", hex(self.start), hex(self.end))
    }
}

/// A bound as the selector text writes it: `0x` and 16 hex digits, or `0x10000000000000000`.
fn hex(v: u128) -> String {
    format!("0x{v:016x}")
}

/// A parsed shard selector: one field and the hash ranges, in the order given, an object of
/// which matches when the hash of its field is in any of them. Never empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShardSelector {
    field: ShardField,
    ranges: Vec<ShardRange>,
}

impl ShardSelector {
    /// `shardRange(field, ranges[0]) || shardRange(field, ranges[1]) || ...`; `None` when
    /// `ranges` is empty (an empty selector is not allowed: omit the parameter instead).
    pub fn new(field: ShardField, ranges: impl IntoIterator<Item = ShardRange>) -> Option<Self> {
        let ranges: Vec<_> = ranges.into_iter().collect();
        (!ranges.is_empty()).then_some(Self { field, ranges })
    }

    /// `shardRange(object.metadata.uid, start, end)`; an error unless `start < end <= 2^64`.
    pub fn uid_range(start: u128, end: u128) -> Result<Self, ShardSelectorError> {
        Ok(Self {
            field: ShardField::Uid,
            ranges: vec![ShardRange::new(start, end)?],
        })
    }

    /// `shardRange(object.metadata.namespace, start, end)`; an error unless
    /// `start < end <= 2^64`.
    pub fn namespace_range(start: u128, end: u128) -> Result<Self, ShardSelectorError> {
        Ok(Self {
            field: ShardField::Namespace,
            ranges: vec![ShardRange::new(start, end)?],
        })
    }

    /// This selector `|| shardRange(field, start, end)` over the same field.
    pub fn or(mut self, start: u128, end: u128) -> Result<Self, ShardSelectorError> {
        self.ranges.push(ShardRange::new(start, end)?);
        Ok(self)
    }

    /// The union of two selectors (`self || other`); an error when they hash different
    /// fields, as kube-apiserver rejects such a selector.
    pub fn union(mut self, other: Self) -> Result<Self, ShardSelectorError> {
        if self.field != other.field {
            return Err(ShardSelectorError::new(
                0,
                format!(
                    "all shard ranges must use the same field, got \"{}\" and \"{}\"",
                    self.field, other.field
                ),
            ));
        }
        self.ranges.extend(other.ranges);
        Ok(self)
    }

    /// The field hashed.
    pub fn field(&self) -> ShardField {
        self.field
    }

    /// The ranges, in the order of the text.
    pub fn ranges(&self) -> &[ShardRange] {
        &self.ranges
    }

    /// True when the FNV-1a hash of `value` (the object's field) is in one of the ranges.
    pub fn contains(&self, value: &str) -> bool {
        self.contains_hash(fnv1a_64(value.as_bytes()))
    }

    /// True when `hash` is in one of the ranges.
    pub fn contains_hash(&self, hash: u64) -> bool {
        self.ranges.iter().any(|r| r.contains_hash(hash))
    }

    /// True when an object with this uid and namespace (`""` for cluster-scoped objects)
    /// matches: the field the selector names is hashed.
    pub fn matches(&self, uid: &str, namespace: &str) -> bool {
        match self.field {
            ShardField::Uid => self.contains(uid),
            ShardField::Namespace => self.contains(namespace),
        }
    }
}

impl fmt::Display for ShardSelector {
    /// kube-apiserver's canonical text: `shardRange(<field>, '<start>', '<end>')` joined by
    /// ` || `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(" || ")?;
            }
            write!(
                f,
                "shardRange({}, '{}', '{}')",
                self.field,
                hex(r.start),
                hex(r.end)
            )?;
        }
        Ok(())
    }
}

impl FromStr for ShardSelector {
    type Err = ShardSelectorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

/// Why a shard selector is invalid: the message kube-apiserver gives (after its
/// `invalid shard selector: ` prefix) and the byte offset in the text where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at byte {position})")]
pub struct ShardSelectorError {
    position: usize,
    message: String,
}

impl ShardSelectorError {
    fn new(position: usize, message: String) -> Self {
        Self { position, message }
    }

    /// The byte offset in the selector text of the token or expression at fault (0 for
    /// selectors built rather than parsed).
    pub fn position(&self) -> usize {
        self.position
    }

    /// What is wrong, in kube-apiserver's words where the text is valid CEL, e.g.
    /// `hexStart must have '0x' prefix, got "80"`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Kinds of cel-go's `ast.ExprKind`, whose numbers kube-apiserver's messages print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Call = 1,
    Ident = 3,
    List = 4,
    Literal = 5,
    Select = 7,
}

/// A literal's value, as far as the messages need it (Go's `%T` of cel-go's value).
#[derive(Clone, Debug, PartialEq)]
enum Lit {
    Str(String),
    Int,
    Uint,
    Double,
    Bool,
    Null,
}

impl Lit {
    fn go_type(&self) -> &'static str {
        match self {
            Self::Str(_) => "string",
            Self::Int => "int64",
            Self::Uint => "uint64",
            Self::Double => "float64",
            Self::Bool => "bool",
            Self::Null => "structpb.NullValue",
        }
    }
}

/// The CEL syntax tree, reduced to what the walk looks at.
#[derive(Clone, Debug, PartialEq)]
enum Expr {
    Ident(String),
    Select(Box<Expr>, String),
    Call {
        function: String,
        args: Vec<(usize, Expr)>,
    },
    Literal(Lit),
    List,
}

impl Expr {
    fn kind(&self) -> Kind {
        match self {
            Self::Ident(_) => Kind::Ident,
            Self::Select(..) => Kind::Select,
            Self::Call { .. } => Kind::Call,
            Self::Literal(_) => Kind::Literal,
            Self::List => Kind::List,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Int,
    Uint,
    Double,
    Punct(&'static str),
    End,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ident(s) => write!(f, "'{s}'"),
            Self::Str(_) => f.write_str("a string"),
            Self::Int | Self::Uint | Self::Double => f.write_str("a number"),
            Self::Punct(p) => write!(f, "'{p}'"),
            Self::End => f.write_str("the end of the selector"),
        }
    }
}

const PUNCTS: [&str; 22] = [
    "||", "&&", "==", "!=", "<=", ">=", "(", ")", ",", ".", "<", ">", "+", "-", "*", "/", "%", "!",
    "[", "]", "{", "}",
];

fn syntax(position: usize, what: impl fmt::Display) -> ShardSelectorError {
    ShardSelectorError::new(position, format!("CEL parse error: {what}"))
}

fn tokenize(s: &str) -> Result<Vec<(usize, Tok)>, ShardSelectorError> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &s[start..i];
            // A raw string: r'...' or R"...", no escapes.
            if (word == "r" || word == "R") && matches!(bytes.get(i), Some(b'\'' | b'"')) {
                let (text, next) = string(s, i, false)?;
                out.push((start, Tok::Str(text)));
                i = next;
                continue;
            }
            out.push((start, Tok::Ident(word.to_owned())));
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (text, next) = string(s, i, true)?;
            out.push((start, Tok::Str(text)));
            i = next;
            continue;
        }
        if c.is_ascii_digit() {
            let (tok, next) = number(bytes, i);
            out.push((start, tok));
            i = next;
            continue;
        }
        match PUNCTS.iter().find(|p| s[i..].starts_with(**p)) {
            Some(p) => {
                out.push((start, Tok::Punct(p)));
                i += p.len();
            }
            None => {
                let ch = s[i..].chars().next().unwrap_or('?');
                return Err(syntax(start, format_args!("unexpected character {ch:?}")));
            }
        }
    }
    out.push((s.len(), Tok::End));
    Ok(out)
}

/// A quoted string starting at `at` (the quote); returns its value and the offset after it.
fn string(s: &str, at: usize, escapes: bool) -> Result<(String, usize), ShardSelectorError> {
    let quote = s.as_bytes()[at] as char;
    let mut out = String::new();
    let mut chars = s[at + 1..].char_indices();
    while let Some((off, c)) = chars.next() {
        let pos = at + 1 + off;
        match c {
            _ if c == quote => return Ok((out, pos + 1)),
            '\n' | '\r' => break,
            '\\' if escapes => {
                let Some((_, e)) = chars.next() else { break };
                out.push(match e {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    '\\' | '\'' | '"' | '`' | '?' => e,
                    other => {
                        return Err(syntax(
                            pos,
                            format_args!("invalid escape sequence '\\{other}' in a string"),
                        ))
                    }
                });
            }
            _ => out.push(c),
        }
    }
    Err(syntax(at, "unterminated string literal"))
}

fn number(bytes: &[u8], mut i: usize) -> (Tok, usize) {
    let hex = bytes[i] == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X'));
    if hex {
        i += 2;
        while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
            i += 1;
        }
    } else {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let fraction =
            bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if fraction {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            return (Tok::Double, i);
        }
    }
    if matches!(bytes.get(i), Some(b'u' | b'U')) {
        return (Tok::Uint, i + 1);
    }
    (Tok::Int, i)
}

/// A precedence-climbing parser of the CEL expressions a selector can be.
struct Parser {
    toks: Vec<(usize, Tok)>,
    at: usize,
}

/// Binary operators by precedence, loosest first, with cel-go's function names.
const LEVELS: [&[(&str, &str)]; 5] = [
    &[("||", "_||_")],
    &[("&&", "_&&_")],
    &[
        ("==", "_==_"),
        ("!=", "_!=_"),
        ("<=", "_<=_"),
        (">=", "_>=_"),
        ("<", "_<_"),
        (">", "_>_"),
    ],
    &[("+", "_+_"), ("-", "_-_")],
    &[("*", "_*_"), ("/", "_/_"), ("%", "_%_")],
];

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 256;

impl Parser {
    fn peek(&self) -> &(usize, Tok) {
        &self.toks[self.at.min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> (usize, Tok) {
        let t = self.peek().clone();
        self.at += 1;
        t
    }

    fn expect(&mut self, p: &'static str) -> Result<(), ShardSelectorError> {
        let (pos, tok) = self.bump();
        if tok == Tok::Punct(p) {
            Ok(())
        } else {
            Err(syntax(pos, format_args!("expected '{p}' but found {tok}")))
        }
    }

    fn binary(&mut self, level: usize, depth: usize) -> Result<Expr, ShardSelectorError> {
        if depth > MAX_DEPTH {
            return Err(syntax(self.peek().0, "expression nested too deeply"));
        }
        let Some(ops) = LEVELS.get(level) else {
            return self.unary(depth);
        };
        let left_pos = self.peek().0;
        let mut left = self.binary(level + 1, depth + 1)?;
        loop {
            let tok = self.peek().1.clone();
            let Some((_, function)) = ops.iter().find(|(p, _)| tok == Tok::Punct(p)) else {
                break;
            };
            self.at += 1;
            let right_pos = self.peek().0;
            let right = self.binary(level + 1, depth + 1)?;
            left = Expr::Call {
                function: (*function).to_owned(),
                args: vec![(left_pos, left), (right_pos, right)],
            };
        }
        Ok(left)
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, ShardSelectorError> {
        let (pos, tok) = self.peek().clone();
        let function = match tok {
            Tok::Punct("!") => "!_",
            Tok::Punct("-") => "-_",
            _ => return self.postfix(depth),
        };
        self.at += 1;
        if depth > MAX_DEPTH {
            return Err(syntax(pos, "expression nested too deeply"));
        }
        let operand = self.unary(depth + 1)?;
        Ok(Expr::Call {
            function: function.to_owned(),
            args: vec![(pos, operand)],
        })
    }

    fn postfix(&mut self, depth: usize) -> Result<Expr, ShardSelectorError> {
        let mut e = self.primary(depth)?;
        loop {
            match self.peek().1 {
                Tok::Punct(".") => {
                    self.at += 1;
                    let (pos, tok) = self.bump();
                    let Tok::Ident(name) = tok else {
                        return Err(syntax(
                            pos,
                            format_args!("expected a field name after '.' but found {tok}"),
                        ));
                    };
                    if self.peek().1 == Tok::Punct("(") {
                        // A member call `x.f(args)`: cel-go's function name is `f`.
                        let args = self.args(depth)?;
                        e = Expr::Call {
                            function: name,
                            args,
                        };
                    } else {
                        e = Expr::Select(Box::new(e), name);
                    }
                }
                Tok::Punct("[") => {
                    let pos = self.peek().0;
                    return Err(syntax(pos, "index expressions are not supported"));
                }
                _ => return Ok(e),
            }
        }
    }

    fn args(&mut self, depth: usize) -> Result<Vec<(usize, Expr)>, ShardSelectorError> {
        self.expect("(")?;
        let mut args = Vec::new();
        if self.peek().1 == Tok::Punct(")") {
            self.at += 1;
            return Ok(args);
        }
        loop {
            let pos = self.peek().0;
            args.push((pos, self.binary(0, depth + 1)?));
            let (pos, tok) = self.bump();
            match tok {
                Tok::Punct(",") => {}
                Tok::Punct(")") => return Ok(args),
                other => {
                    return Err(syntax(
                        pos,
                        format_args!("expected ',' or ')' but found {other}"),
                    ))
                }
            }
        }
    }

    fn primary(&mut self, depth: usize) -> Result<Expr, ShardSelectorError> {
        let (pos, tok) = self.bump();
        match tok {
            Tok::Ident(name) => match name.as_str() {
                "true" | "false" => Ok(Expr::Literal(Lit::Bool)),
                "null" => Ok(Expr::Literal(Lit::Null)),
                _ if self.peek().1 == Tok::Punct("(") => {
                    let args = self.args(depth)?;
                    Ok(Expr::Call {
                        function: name,
                        args,
                    })
                }
                _ => Ok(Expr::Ident(name)),
            },
            Tok::Str(s) => Ok(Expr::Literal(Lit::Str(s))),
            Tok::Int => Ok(Expr::Literal(Lit::Int)),
            Tok::Uint => Ok(Expr::Literal(Lit::Uint)),
            Tok::Double => Ok(Expr::Literal(Lit::Double)),
            Tok::Punct("(") => {
                let e = self.binary(0, depth + 1)?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("[") => {
                if self.peek().1 == Tok::Punct("]") {
                    self.at += 1;
                    return Ok(Expr::List);
                }
                loop {
                    self.binary(0, depth + 1)?;
                    let (p, t) = self.bump();
                    match t {
                        Tok::Punct(",") => {}
                        Tok::Punct("]") => return Ok(Expr::List),
                        other => {
                            return Err(syntax(
                                p,
                                format_args!("expected ',' or ']' but found {other}"),
                            ))
                        }
                    }
                }
            }
            other => Err(syntax(
                pos,
                format_args!("expected shardRange(...) or '(' but found {other}"),
            )),
        }
    }
}

fn parse(input: &str) -> Result<ShardSelector, ShardSelectorError> {
    let lead = input.len() - input.trim_start().len();
    let text = input.trim();
    if text.is_empty() {
        return Err(ShardSelectorError::new(
            0,
            "empty shard selector is not allowed; omit the parameter for unfiltered lists".into(),
        ));
    }
    let toks = tokenize(text)?
        .into_iter()
        .map(|(p, t)| (p + lead, t))
        .collect();
    let mut parser = Parser { toks, at: 0 };
    let expr = parser.binary(0, 0)?;
    let (pos, tok) = parser.bump();
    if tok != Tok::End {
        return Err(syntax(
            pos,
            format_args!("unexpected {tok} after the expression"),
        ));
    }
    let mut found = Vec::new();
    walk(lead, &expr, &mut found)?;
    let Some(((_, field), _)) = found.first().copied() else {
        return Err(syntax(lead, "no shardRange() in the selector"));
    };
    if let Some(((pos, other), _)) = found.iter().find(|((_, f), _)| *f != field) {
        return Err(ShardSelectorError::new(
            *pos,
            format!("all shard ranges must use the same field, got \"{field}\" and \"{other}\""),
        ));
    }
    Ok(ShardSelector {
        field,
        ranges: found.into_iter().map(|(_, r)| r).collect(),
    })
}

type Found = ((usize, ShardField), ShardRange);

/// kube-apiserver's walk of the tree: `||` of `shardRange(field, 'start', 'end')` calls.
fn walk(pos: usize, e: &Expr, out: &mut Vec<Found>) -> Result<(), ShardSelectorError> {
    let Expr::Call { function, args } = e else {
        return Err(ShardSelectorError::new(
            pos,
            format!(
                "unexpected expression kind {}; expected shardRange() call or || operator",
                e.kind() as u8
            ),
        ));
    };
    match function.as_str() {
        "_||_" => {
            for (p, a) in args {
                walk(*p, a, out)?;
            }
            Ok(())
        }
        "shardRange" => {
            out.push(shard_range(pos, args)?);
            Ok(())
        }
        other => Err(ShardSelectorError::new(
            pos,
            format!("unsupported function \"{other}\"; only shardRange() and || are allowed"),
        )),
    }
}

fn shard_range(pos: usize, args: &[(usize, Expr)]) -> Result<Found, ShardSelectorError> {
    let [(field_pos, field), (start_pos, start), (end_pos, end)] = args else {
        return Err(ShardSelectorError::new(
            pos,
            format!(
                "shardRange() requires exactly 3 arguments, got {}",
                args.len()
            ),
        ));
    };
    let path = field_path(field).map_err(|kind| {
        ShardSelectorError::new(
            *field_pos,
            format!(
                "shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind {}",
                kind as u8
            ),
        )
    })?;
    let field = ShardField::from_path(&path).ok_or_else(|| {
        ShardSelectorError::new(
            *field_pos,
            format!("unsupported field path \"{path}\"; supported: object.metadata.uid, object.metadata.namespace"),
        )
    })?;
    let start = bound(*start_pos, start, "hexStart")?;
    let end = bound(*end_pos, end, "hexEnd")?;
    if start >= end {
        return Err(ShardSelectorError::new(
            *start_pos,
            format!(
                "shard range start {} must be less than end {}",
                hex(start),
                hex(end)
            ),
        ));
    }
    Ok(((*field_pos, field), ShardRange { start, end }))
}

fn field_path(e: &Expr) -> Result<String, Kind> {
    match e {
        Expr::Ident(name) => Ok(name.clone()),
        Expr::Select(operand, name) => Ok(format!("{}.{name}", field_path(operand)?)),
        other => Err(other.kind()),
    }
}

/// A bound: a string literal `0x` + 16 lowercase hex digits, or `0x10000000000000000`.
fn bound(pos: usize, e: &Expr, name: &str) -> Result<u128, ShardSelectorError> {
    let err = |message: String| ShardSelectorError::new(pos, message);
    let Expr::Literal(lit) = e else {
        return Err(err(format!(
            "{name} must be a string literal (e.g. '0xff'), got expression kind {}",
            e.kind() as u8
        )));
    };
    let Lit::Str(s) = lit else {
        return Err(err(format!(
            "{name} must be a string literal, got {}",
            lit.go_type()
        )));
    };
    let Some(digits) = s.strip_prefix("0x") else {
        return Err(err(format!("{name} must have '0x' prefix, got {s:?}")));
    };
    if digits.is_empty() {
        return Err(err(format!("{name}: hex value is required after '0x'")));
    }
    let count = digits.chars().count();
    if count > 17 {
        return Err(err(format!(
            "{name}: hex value too long ({count} chars, max 17): {digits:?}"
        )));
    }
    if let Some(c) = digits.chars().find(|c| !matches!(c, '0'..='9' | 'a'..='f')) {
        return Err(err(format!(
            "{name}: invalid hex character {:?} in {s:?}",
            c.to_string()
        )));
    }
    if count == 17 {
        if s != "0x10000000000000000" {
            return Err(err(format!(
                "{name}: 17-digit hex value must be '0x10000000000000000' (2^64), got {s:?}"
            )));
        }
        return Ok(ShardRange::END);
    }
    if count != 16 {
        return Err(err(format!(
            "{name} must be a 0x-prefixed 16-digit hex value, got {s:?} (did you mean \"0x{}{digits}\"?)",
            "0".repeat(16 - count)
        )));
    }
    u128::from_str_radix(digits, 16).map_err(|e| err(format!("{name}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: u128 = 1 << 63;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference test suite (Landon Curt Noll's fnv test vectors, FNV-1a 64).
        for (input, want) in [
            ("", 0xcbf2_9ce4_8422_2325_u64),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("b", 0xaf63_df4c_8601_f1a5),
            ("foobar", 0x8594_4171_f739_67e8),
            ("chongo was here!\n", 0x4681_0940_eff5_f915),
        ] {
            assert_eq!(fnv1a_64(input.as_bytes()), want, "{input:?}");
        }
    }

    #[test]
    fn the_keps_examples_parse_and_print_canonically() {
        let one = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
        let s: ShardSelector = one.parse().unwrap();
        assert_eq!(s, ShardSelector::uid_range(0, HALF).unwrap());
        assert_eq!(s.to_string(), one);
        let two = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";
        let s: ShardSelector = two.parse().unwrap();
        assert_eq!(
            s.ranges(),
            &[
                ShardRange::new(0, HALF).unwrap(),
                ShardRange::new(HALF, ShardRange::END).unwrap()
            ]
        );
        assert_eq!(s.to_string(), two);
        let ns =
            "shardRange(object.metadata.namespace, '0x00000000000000aa', '0x00000000000000ff')";
        let s: ShardSelector = ns.parse().unwrap();
        assert_eq!(s.field(), ShardField::Namespace);
        assert_eq!(s.ranges()[0].start(), 0xaa);
        assert_eq!(s.to_string(), ns);
    }

    #[test]
    fn whitespace_quotes_and_parentheses_are_cel_and_print_canonically() {
        let canonical =
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
        for text in [
            "shardRange(object.metadata.uid,'0x0000000000000000','0x8000000000000000')",
            "  shardRange( object.metadata.uid ,  '0x0000000000000000' ,  '0x8000000000000000' )  ",
            "(shardRange(object . metadata . uid, \"0x0000000000000000\", r'0x8000000000000000'))",
        ] {
            let s: ShardSelector = text.parse().unwrap();
            assert_eq!(s.to_string(), canonical, "{text}");
        }
        let three = "(shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000005') || shardRange(object.metadata.uid, '0x0000000000000005', '0x000000000000000a')) || shardRange(object.metadata.uid, '0x000000000000000a', '0x000000000000000f')";
        let s: ShardSelector = three.parse().unwrap();
        assert_eq!(s.ranges().len(), 3);
        assert_eq!(s.to_string().parse::<ShardSelector>().unwrap(), s);
    }

    #[test]
    fn bounds_are_inclusive_below_and_exclusive_above() {
        let s = ShardSelector::uid_range(0x10, 0x20).unwrap();
        assert!(!s.contains_hash(0x0f));
        assert!(s.contains_hash(0x10));
        assert!(s.contains_hash(0x1f));
        assert!(!s.contains_hash(0x20));
        let top = ShardSelector::uid_range(u128::from(u64::MAX), ShardRange::END).unwrap();
        assert!(top.contains_hash(u64::MAX));
        assert!(!top.contains_hash(u64::MAX - 1));
        let all = ShardSelector::uid_range(0, ShardRange::END).unwrap();
        assert!(all.contains("") && all.contains("anything"));
    }

    #[test]
    fn unions_match_either_range_and_need_one_field() {
        let s = ShardSelector::uid_range(0, 0x10)
            .unwrap()
            .or(0x30, 0x40)
            .unwrap();
        assert!(s.contains_hash(0x5) && s.contains_hash(0x35) && !s.contains_hash(0x20));
        let value = "default";
        let h = u128::from(fnv1a_64(value.as_bytes()));
        let ns = ShardSelector::namespace_range(h, h + 1).unwrap();
        assert!(ns.contains(value) && ns.matches("uid-x", value));
        assert!(!ShardSelector::uid_range(h, h + 1)
            .unwrap()
            .matches("uid-x", value));
        let err = ns.clone().union(s.clone()).unwrap_err();
        assert_eq!(
            err.message(),
            "all shard ranges must use the same field, got \"object.metadata.namespace\" and \"object.metadata.uid\""
        );
        assert_eq!(s.clone().union(s.clone()).unwrap().ranges().len(), 4);
    }

    #[test]
    fn nth_of_splits_the_space_exactly() {
        let parts: Vec<_> = (0..3).map(|i| ShardRange::nth_of(i, 3).unwrap()).collect();
        assert_eq!(parts[0].start(), 0);
        assert_eq!(parts[0].end(), parts[1].start());
        assert_eq!(parts[1].end(), parts[2].start());
        assert_eq!(parts[2].end(), ShardRange::END);
        assert_eq!(ShardRange::nth_of(3, 3), None);
        assert_eq!(ShardRange::nth_of(0, 1), Some(ShardRange::FULL));
    }

    /// The messages of kube-apiserver's parser for text that is valid CEL.
    #[test]
    fn errors_name_what_was_expected_and_where() {
        let cases: &[(&str, &str, usize)] = &[
            ("", "empty shard selector is not allowed; omit the parameter for unfiltered lists", 0),
            ("shardRange(object.metadata.uid, '0000000000000000', '0x8000000000000000')", "hexStart must have '0x' prefix, got \"0000000000000000\"", 32),
            ("shardRange(object.metadata.uid, '0x0000000000000000', '8000000000000000')", "hexEnd must have '0x' prefix, got \"8000000000000000\"", 54),
            ("shardRange(object.metadata.uid, '0x', '0x8000000000000000')", "hexStart: hex value is required after '0x'", 32),
            ("shardRange(object.metadata.name, '0x00', '0x80')", "unsupported field path \"object.metadata.name\"; supported: object.metadata.uid, object.metadata.namespace", 11),
            ("invalidFunc(object.metadata.uid, '0x00', '0x80')", "unsupported function \"invalidFunc\"; only shardRange() and || are allowed", 0),
            ("shardRange(object.metadata.uid, '0x000000000000000000', '0x80')", "hexStart: hex value too long (18 chars, max 17): \"000000000000000000\"", 32),
            ("shardRange(object.metadata.uid, '0x0g', '0x80')", "hexStart: invalid hex character \"g\" in \"0x0g\"", 32),
            ("shardRange(object.metadata.uid, '0x0', '0x8') && shardRange(object.metadata.uid, '0x8', '0xf')", "unsupported function \"_&&_\"; only shardRange() and || are allowed", 0),
            ("shardRange(object.metadata.uid, 0, 8)", "hexStart must be a string literal, got int64", 32),
            ("object.metadata.uid > '0x0'", "unsupported function \"_>_\"; only shardRange() and || are allowed", 0),
            ("shardRange(object.metadata.uid, '0x0')", "shardRange() requires exactly 3 arguments, got 2", 0),
            ("shardRange(object.metadata.uid, hex(0), '0x8')", "hexStart must be a string literal (e.g. '0xff'), got expression kind 1", 32),
            ("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')", "all shard ranges must use the same field, got \"object.metadata.uid\" and \"object.metadata.namespace\"", 90),
            ("shardRange(object.metadata.uid, '0x0', '0x8000000000000000')", "hexStart must be a 0x-prefixed 16-digit hex value, got \"0x0\" (did you mean \"0x0000000000000000\"?)", 32),
            ("shardRange(object.metadata.uid, '0x8000000000000000', '0x8000000000000000')", "shard range start 0x8000000000000000 must be less than end 0x8000000000000000", 32),
            ("shardRange(object.metadata.uid, '0x0000000000000000', '0x1000000000000000f')", "hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got \"0x1000000000000000f\"", 54),
            ("shardRange(object.metadata.uid, '0x000000000000000A', '0x8000000000000000')", "hexStart: invalid hex character \"A\" in \"0x000000000000000A\"", 32),
            ("'0x0'", "unexpected expression kind 5; expected shardRange() call or || operator", 0),
            ("shardRange('x', '0x0000000000000000', '0x8000000000000000')", "shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind 5", 11),
        ];
        for (text, message, position) in cases {
            let err = text.parse::<ShardSelector>().unwrap_err();
            assert_eq!(err.message(), *message, "{text}");
            assert_eq!(err.position(), *position, "{text}");
            assert!(err.to_string().contains(&format!("at byte {position}")));
        }
    }

    #[test]
    fn text_that_is_not_cel_is_a_syntax_error_with_a_position() {
        for (text, position) in [
            ("shardRange(object.metadata.uid, '0x0", 32),
            ("shardRange(object.metadata.uid '0x0', '0x1')", 31),
            ("shardRange(object.metadata.uid, '0x0', '0x1'", 44),
            ("shardRange(object.metadata.uid, '0x0', '0x1')) ", 45),
            ("shardRange(object.metadata.uid, '0x0', '0x1') |", 46),
            ("shardRange(object.metadata.uid, '0x0', '0x1') #", 46),
            ("object.", 7),
        ] {
            let err = text.parse::<ShardSelector>().unwrap_err();
            assert!(
                err.message().starts_with("CEL parse error: "),
                "{text}: {err}"
            );
            assert_eq!(err.position(), position, "{text}: {err}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = format!("{}shardRange{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(deep.parse::<ShardSelector>().is_err());
        let bangs = format!("{}x", "!".repeat(10_000));
        assert!(bangs.parse::<ShardSelector>().is_err());
    }

    fn any_range() -> impl proptest::strategy::Strategy<Value = ShardRange> {
        use proptest::prelude::*;
        (any::<u64>(), 1..=u64::MAX).prop_map(|(a, w)| {
            let start = u128::from(a);
            let end = (start + u128::from(w)).min(ShardRange::END);
            ShardRange { start, end }
        })
    }

    proptest::proptest! {
        #[test]
        fn random_text_never_panics(text in ".{0,80}") {
            let _ = text.parse::<ShardSelector>();
        }

        #[test]
        fn random_cel_shaped_text_never_panics(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "shardRange", "(", ")", ",", " || ", "&&", "object", ".", "metadata", "uid",
                    "namespace", "'0x0000000000000000'", "'0x10000000000000000'", "\"0x8000000000000000\"",
                    "'0x", "'", "0", "!", "-", "[", "]", "r'", "\\", "1.5", "2u", "true", "null",
                ]),
                0..24,
            )
        ) {
            let text: String = parts.concat();
            if let Ok(s) = text.parse::<ShardSelector>() {
                proptest::prop_assert_eq!(s.to_string().parse::<ShardSelector>().unwrap(), s);
            }
        }

        #[test]
        fn built_selectors_round_trip_and_match_by_their_ranges(
            namespace in proptest::bool::ANY,
            ranges in proptest::collection::vec(any_range(), 1..5),
            value in ".{0,40}",
        ) {
            let field = if namespace { ShardField::Namespace } else { ShardField::Uid };
            let s = ShardSelector::new(field, ranges.clone()).unwrap();
            let text = s.to_string();
            proptest::prop_assert_eq!(text.parse::<ShardSelector>().unwrap(), s.clone());
            let h = u128::from(fnv1a_64(value.as_bytes()));
            let naive = ranges.iter().any(|r| r.start() <= h && h < r.end());
            proptest::prop_assert_eq!(s.contains(&value), naive);
        }
    }

    #[test]
    fn built_ranges_are_checked() {
        assert!(ShardRange::new(5, 5).is_err());
        assert!(ShardRange::new(0, ShardRange::END + 1).is_err());
        assert!(ShardSelector::uid_range(0, 0).is_err());
        assert_eq!(ShardSelector::new(ShardField::Uid, []), None);
    }
}

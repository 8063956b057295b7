//! Kubernetes label selectors: parse the full syntax and match label sets.
//!
//! The grammar, the validation of keys and values and the canonical text form
//! follow `k8s.io/apimachinery/pkg/labels`: requirements are joined by commas,
//! surrounding whitespace is ignored, keys are qualified names (an optional DNS
//! subdomain prefix and `/`, then a name of at most 63 characters) and values are
//! empty or at most 63 characters of `[A-Za-z0-9._-]` starting and ending
//! alphanumeric. Parsed requirements are kept sorted by key, as apimachinery does.

use std::collections::BTreeMap;
use std::fmt;

use crate::labels::Labels;

/// A parsed label selector (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
/// `a>1`, `a<1`, comma-joined). The empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

/// Why a selector string is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid label selector {input:?}: {reason}")]
pub struct SelectorError {
    /// The selector text.
    pub input: String,
    /// What is wrong, and where.
    pub reason: String,
}

/// The operator of one requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `key=value`
    Equals,
    /// `key==value`
    DoubleEquals,
    /// `key!=value`
    NotEquals,
    /// `key in (a,b)`
    In,
    /// `key notin (a,b)`
    NotIn,
    /// `key`
    Exists,
    /// `!key`
    DoesNotExist,
    /// `key>n` (the label value, read as an integer, is greater than n)
    GreaterThan,
    /// `key<n` (the label value, read as an integer, is less than n)
    LessThan,
}

/// One requirement of a selector: a key, an operator and its values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    key: String,
    operator: Operator,
    /// Sorted and without duplicates, so equal selectors compare equal.
    values: Vec<String>,
}

impl Requirement {
    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The values, sorted (empty for `Exists`/`DoesNotExist`).
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// The values of `in`/`notin` as written between the parentheses. A set holding only the
    /// empty value is written `,` (two empty values, deduplicated when parsed back): `()` is
    /// the empty set, which does not parse (apimachinery prints `()` and cannot read it back).
    fn value_set(&self) -> String {
        match self.values.as_slice() {
            [only] if only.is_empty() => ",".to_owned(),
            values => values.join(","),
        }
    }

    fn matches(&self, labels: Labels<'_>) -> bool {
        let value = labels.get(&self.key);
        match self.operator {
            Operator::Equals | Operator::DoubleEquals | Operator::In => {
                value.is_some_and(|v| self.values.iter().any(|w| w == v))
            }
            Operator::NotEquals | Operator::NotIn => {
                value.is_none_or(|v| !self.values.iter().any(|w| w == v))
            }
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(have), Some(bound)) = (
                    value.and_then(|v| v.parse::<i64>().ok()),
                    self.values.first().and_then(|v| v.parse::<i64>().ok()),
                ) else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    have > bound
                } else {
                    have < bound
                }
            }
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let single = self.values.first().map(String::as_str).unwrap_or("");
        match self.operator {
            Operator::Exists => write!(f, "{}", self.key),
            Operator::DoesNotExist => write!(f, "!{}", self.key),
            Operator::Equals => write!(f, "{}={}", self.key, single),
            Operator::DoubleEquals => write!(f, "{}=={}", self.key, single),
            Operator::NotEquals => write!(f, "{}!={}", self.key, single),
            Operator::GreaterThan => write!(f, "{}>{}", self.key, single),
            Operator::LessThan => write!(f, "{}<{}", self.key, single),
            Operator::In => write!(f, "{} in ({})", self.key, self.value_set()),
            Operator::NotIn => write!(f, "{} notin ({})", self.key, self.value_set()),
        }
    }
}

impl Selector {
    /// The selector that matches everything.
    pub fn everything() -> Self {
        Self::default()
    }

    /// The equality selector `k1=v1,k2=v2,...` for a label set (client-go's `SelectorFromSet`).
    ///
    /// Fails when a key or value is not a valid label key or value.
    pub fn from_labels(labels: &BTreeMap<String, String>) -> Result<Self, SelectorError> {
        let text = labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",");
        text.parse()
    }

    /// True when `labels` satisfies every requirement: an object's labels as the runtime's
    /// `Meta::labels` returns them, or a `BTreeMap` of them (`None` for an object without
    /// labels).
    pub fn matches<'a>(&self, labels: impl Into<Labels<'a>>) -> bool {
        let labels = labels.into();
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// True for the empty selector.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }
}

impl fmt::Display for Selector {
    /// The canonical text: requirements sorted by key, values sorted, joined by `,`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Selector {
    type Err = SelectorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let tokens = lex(s).map_err(|reason| SelectorError {
            input: s.to_owned(),
            reason,
        })?;
        let mut requirements =
            Parser { tokens, pos: 0 }
                .parse()
                .map_err(|reason| SelectorError {
                    input: s.to_owned(),
                    reason,
                })?;
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(Self { requirements })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Identifier(String),
    Not,
    Equals,
    DoubleEquals,
    NotEquals,
    GreaterThan,
    LessThan,
    OpenParen,
    CloseParen,
    Comma,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Identifier(s) => format!("'{s}'"),
            Token::Not => "'!'".into(),
            Token::Equals => "'='".into(),
            Token::DoubleEquals => "'=='".into(),
            Token::NotEquals => "'!='".into(),
            Token::GreaterThan => "'>'".into(),
            Token::LessThan => "'<'".into(),
            Token::OpenParen => "'('".into(),
            Token::CloseParen => "')'".into(),
            Token::Comma => "','".into(),
        }
    }
}

fn is_special(c: char) -> bool {
    matches!(c, '!' | '=' | '(' | ')' | ',' | '>' | '<')
}

fn lex(input: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = input.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if is_special(c) {
            chars.next();
            let next_is_eq = chars.peek().is_some_and(|&(_, n)| n == '=');
            let token = match c {
                '!' if next_is_eq => {
                    chars.next();
                    Token::NotEquals
                }
                '!' => Token::Not,
                '=' if next_is_eq => {
                    chars.next();
                    Token::DoubleEquals
                }
                '=' => Token::Equals,
                '(' => Token::OpenParen,
                ')' => Token::CloseParen,
                ',' => Token::Comma,
                '>' => Token::GreaterThan,
                '<' => Token::LessThan,
                other => return Err(format!("unexpected character {other:?} at offset {start}")),
            };
            tokens.push(token);
            continue;
        }
        let mut end = start;
        while let Some(&(i, n)) = chars.peek() {
            if n.is_whitespace() || is_special(n) {
                break;
            }
            end = i + n.len_utf8();
            chars.next();
        }
        tokens.push(Token::Identifier(input[start..end].to_owned()));
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn parse(mut self) -> Result<Vec<Requirement>, String> {
        let mut out = Vec::new();
        if self.peek().is_none() {
            return Ok(out);
        }
        loop {
            out.push(self.requirement()?);
            match self.next() {
                None => return Ok(out),
                Some(Token::Comma) => {
                    if !matches!(self.peek(), Some(Token::Identifier(_) | Token::Not)) {
                        return Err(format!(
                            "found {}, expected: identifier after ','",
                            describe(self.peek())
                        ));
                    }
                }
                Some(other) => {
                    return Err(format!(
                        "found {}, expected: ',' or end of string",
                        other.describe()
                    ))
                }
            }
        }
    }

    fn key(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Token::Identifier(k)) if k != "in" && k != "notin" => {
                validate_key(&k)?;
                Ok(k)
            }
            other => Err(format!(
                "found {}, expected: identifier",
                describe(other.as_ref())
            )),
        }
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        if self.peek() == Some(&Token::Not) {
            self.pos += 1;
            let key = self.key()?;
            return Ok(Requirement {
                key,
                operator: Operator::DoesNotExist,
                values: Vec::new(),
            });
        }
        let key = self.key()?;
        let operator = match self.peek() {
            None | Some(Token::Comma) => {
                return Ok(Requirement {
                    key,
                    operator: Operator::Exists,
                    values: Vec::new(),
                })
            }
            Some(Token::Equals) => Operator::Equals,
            Some(Token::DoubleEquals) => Operator::DoubleEquals,
            Some(Token::NotEquals) => Operator::NotEquals,
            Some(Token::GreaterThan) => Operator::GreaterThan,
            Some(Token::LessThan) => Operator::LessThan,
            Some(Token::Identifier(s)) if s == "in" => Operator::In,
            Some(Token::Identifier(s)) if s == "notin" => Operator::NotIn,
            Some(other) => {
                return Err(format!(
                    "found {} after key {key:?}, expected: in, notin, =, ==, !=, >, <",
                    other.describe()
                ))
            }
        };
        self.pos += 1;
        let values = match operator {
            Operator::In | Operator::NotIn => self.value_set(&key)?,
            _ => vec![self.single_value(&key, operator)?],
        };
        Ok(Requirement {
            key,
            operator,
            values,
        })
    }

    fn single_value(&mut self, key: &str, operator: Operator) -> Result<String, String> {
        let value = match self.peek() {
            None | Some(Token::Comma) => String::new(),
            Some(Token::Identifier(v)) => {
                let v = v.clone();
                self.pos += 1;
                v
            }
            Some(other) => {
                return Err(format!(
                    "found {} after key {key:?}, expected: a value",
                    other.describe()
                ))
            }
        };
        if matches!(operator, Operator::GreaterThan | Operator::LessThan) {
            if value.parse::<i64>().is_err() {
                return Err(format!(
                    "for 'gt', 'lt' operators, the value of key {key:?} must be an integer, got {value:?}"
                ));
            }
        } else {
            validate_value(key, &value)?;
        }
        Ok(value)
    }

    fn value_set(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.next() {
            Some(Token::OpenParen) => {}
            other => {
                return Err(format!(
                    "found {} after key {key:?}, expected: '('",
                    describe(other.as_ref())
                ))
            }
        }
        let mut values = Vec::new();
        if self.peek() == Some(&Token::CloseParen) {
            return Err(format!(
                "for 'in', 'notin' operators, the values of key {key:?} can't be empty"
            ));
        }
        let mut expect_value = true;
        loop {
            match self.next() {
                Some(Token::Identifier(v)) if expect_value => {
                    validate_value(key, &v)?;
                    values.push(v);
                    expect_value = false;
                }
                Some(Token::Comma) => {
                    if expect_value {
                        values.push(String::new());
                    }
                    expect_value = true;
                }
                Some(Token::CloseParen) => {
                    if expect_value {
                        values.push(String::new());
                    }
                    break;
                }
                other => {
                    return Err(format!(
                        "found {} in the values of key {key:?}, expected: ',' or ')'",
                        describe(other.as_ref())
                    ))
                }
            }
        }
        values.sort();
        values.dedup();
        Ok(values)
    }
}

fn describe(t: Option<&Token>) -> String {
    t.map_or_else(|| "end of string".to_owned(), Token::describe)
}

const NAME_MAX: usize = 63;
const PREFIX_MAX: usize = 253;

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, the shape of label names and values.
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// A DNS-1123 subdomain (apimachinery's `IsDNS1123Subdomain`): at most 253 characters,
/// lowercase labels of `[a-z0-9-]` that start and end alphanumeric, joined by dots. The
/// shape of label-key prefixes and of most object names.
///
/// ```
/// use informer_selectors::is_dns_subdomain;
/// assert!(is_dns_subdomain("example.com"));
/// assert!(!is_dns_subdomain("Example.com"));
/// assert!(!is_dns_subdomain("a-.b"));
/// ```
pub fn is_dns_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= PREFIX_MAX
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
                && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        })
}

fn validate_key(key: &str) -> Result<(), String> {
    if key.matches('/').count() > 1 {
        return Err(format!(
            "invalid label key {key:?}: a qualified name has at most one '/'"
        ));
    }
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        if !is_dns_subdomain(prefix) {
            return Err(format!(
                "invalid label key {key:?}: prefix part must be a lowercase DNS subdomain of at most {PREFIX_MAX} characters"
            ));
        }
    }
    if name.len() > NAME_MAX {
        return Err(format!(
            "invalid label key {key:?}: name part must be no more than {NAME_MAX} characters"
        ));
    }
    if !is_qualified_name_part(name) {
        return Err(format!(
            "invalid label key {key:?}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
        ));
    }
    Ok(())
}

fn validate_value(key: &str, value: &str) -> Result<(), String> {
    if value.len() > NAME_MAX {
        return Err(format!(
            "invalid label value {value:?} for key {key:?}: must be no more than {NAME_MAX} characters"
        ));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        return Err(format!(
            "invalid label value {value:?} for key {key:?}: must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn canonical_text_round_trips() {
        let cases = [
            ("", ""),
            ("   ", ""),
            ("a=b", "a=b"),
            ("a==b", "a==b"),
            ("a!=b", "a!=b"),
            (" x , !y ", "x,!y"),
            ("b=1,a=2", "a=2,b=1"),
            ("env in (prod, dev,dev)", "env in (dev,prod)"),
            ("env notin (a)", "env notin (a)"),
            ("a=", "a="),
            ("a in (,x)", "a in (,x)"),
            ("example.com/app=web", "example.com/app=web"),
            ("n>5,m<-1", "m<-1,n>5"),
            ("a=b,a!=c", "a=b,a!=c"),
        ];
        for (input, want) in cases {
            let s: Selector = input.parse().unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(s.to_string(), want, "input {input:?}");
            let again: Selector = want.parse().unwrap();
            assert_eq!(again, s, "reparse of {want:?}");
        }
    }

    #[test]
    fn matching_table() {
        let l = labels(&[("app", "web"), ("tier", "front"), ("n", "7"), ("e", "")]);
        let cases = [
            ("", true),
            ("app=web", true),
            ("app==web", true),
            ("app=db", false),
            ("app!=db", true),
            ("app!=web", false),
            ("missing!=x", true),
            ("app in (db,web)", true),
            ("app in (db)", false),
            ("missing in (x)", false),
            ("app notin (db)", true),
            ("app notin (web)", false),
            ("missing notin (web)", true),
            ("app", true),
            ("missing", false),
            ("!missing", true),
            ("!app", false),
            ("app=web,tier=front", true),
            ("app=web,tier=back", false),
            ("n>6", true),
            ("n>7", false),
            ("n<8", true),
            ("app>1", false),
            ("missing<1", false),
            ("e=", true),
            ("e in (,x)", true),
        ];
        for (sel, want) in cases {
            let s: Selector = sel.parse().unwrap();
            assert_eq!(s.matches(Some(&l)), want, "{sel:?}");
        }
        let none: Selector = "!app".parse().unwrap();
        assert!(none.matches(None));
        assert!(!"app".parse::<Selector>().unwrap().matches(None));
        assert!(Selector::everything().matches(None));
        assert!(Selector::everything().is_empty());
    }

    #[test]
    fn invalid_input_is_rejected_with_a_reason() {
        let cases = [
            ("a=b,", "after ','"),
            (",a", "expected: identifier"),
            ("a b", "expected: in, notin"),
            ("a in b", "expected: '('"),
            ("a in ()", "can't be empty"),
            ("a in (b", "expected: ',' or ')'"),
            ("a in (b c)", "expected: ',' or ')'"),
            ("=b", "expected: identifier"),
            ("!", "expected: identifier"),
            ("a=b=c", "expected: ',' or end of string"),
            ("-a=b", "name part must consist"),
            ("a/b/c=d", "at most one '/'"),
            ("Example.com/a=b", "prefix part"),
            ("a=-b", "must be empty or consist"),
            ("a>x", "must be an integer"),
            ("a=(b)", "expected: a value"),
        ];
        for (input, needle) in cases {
            let err = input
                .parse::<Selector>()
                .expect_err(&format!("{input:?} should be invalid"));
            assert_eq!(err.input, input);
            assert!(
                err.reason.contains(needle),
                "{input:?}: reason {:?} lacks {needle:?}",
                err.reason
            );
        }
        let long_value = format!("a={}", "v".repeat(64));
        assert!(long_value.parse::<Selector>().is_err());
        let long_name = format!("{}=v", "k".repeat(64));
        assert!(long_name.parse::<Selector>().is_err());
        let ok_value = format!("a={}", "v".repeat(63));
        assert!(ok_value.parse::<Selector>().is_ok());
    }

    #[test]
    fn from_labels_builds_an_equality_selector() {
        let s = Selector::from_labels(&labels(&[("b", "2"), ("a", "1")])).unwrap();
        assert_eq!(s.to_string(), "a=1,b=2");
        assert!(Selector::from_labels(&labels(&[("a b", "1")])).is_err());
    }
}

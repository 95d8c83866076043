//===- Json.cpp - a small JSON parser for kernel manifests ----------------===//

#include "attnrt/Json.h"
#include "attnrt/Error.h"
#include "attnrt/Util.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

namespace attnrt::json {

const char *kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "boolean";
  case Value::Kind::Number:
    return "number";
  case Value::Kind::String:
    return "string";
  case Value::Kind::Array:
    return "array";
  case Value::Kind::Object:
    return "object";
  }
  return "?";
}

const char *Value::kindName() const { return json::kindName(kind); }

bool Value::isInteger() const {
  if (kind != Kind::Number)
    return false;
  if (text.find_first_of(".eE") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  (void)std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && end && *end == '\0';
}

int64_t Value::asInteger() const {
  return static_cast<int64_t>(std::strtoll(text.c_str(), nullptr, 10));
}

const Value *Value::find(const std::string &key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

std::string Value::brief() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return boolean ? "true" : "false";
  case Kind::Number:
    return text;
  case Kind::String: {
    std::string s = "\"" + (text.size() > 40 ? text.substr(0, 40) + "..."
                                             : text);
    return s + "\"";
  }
  case Kind::Array:
    return "an array of " + std::to_string(array.size());
  case Kind::Object:
    return "an object";
  }
  return "?";
}

namespace {

class Parser {
public:
  Parser(const std::string &text, const std::string &fileName)
      : text(text), fileName(fileName) {}

  Value parseDocument() {
    // A UTF-8 byte order mark is tolerated.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
      advance(3);
    skipWhitespace();
    if (atEnd())
      fail("expected a JSON value, got an empty document");
    Value v = parseValue(0);
    skipWhitespace();
    if (!atEnd())
      fail("expected the end of the document after the top-level value, "
           "got " + describeCurrent());
    return v;
  }

private:
  static constexpr int kMaxDepth = 200;

  const std::string &text;
  const std::string &fileName;
  size_t pos = 0;
  int line = 1, column = 1;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }
  Location here() const { return Location{line, column}; }

  void advance(size_t n = 1) {
    for (size_t k = 0; k < n && !atEnd(); ++k, ++pos) {
      if (text[pos] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text[pos]) & 0xC0) != 0x80) {
        ++column; // count characters, not UTF-8 continuation bytes
      }
    }
  }

  [[noreturn]] void failAt(Location loc, const std::string &message) const {
    throw Error(fileName + ":" + std::to_string(loc.line) + ":" +
                    std::to_string(loc.column) + ": " + message,
                kExitInput);
  }
  [[noreturn]] void fail(const std::string &message) const {
    failAt(here(), message);
  }

  std::string describeCurrent() const {
    if (atEnd())
      return "the end of the file";
    unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x20 || c == 0x7F) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "character 0x%02X", c);
      return buf;
    }
    if (c >= 0x80)
      return "a non-ASCII character";
    return std::string("'") + char(c) + "'";
  }

  void skipWhitespace() {
    while (!atEnd()) {
      char c = text[pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        advance();
      else
        break;
    }
  }

  void expectLiteral(const char *word) {
    Location start = here();
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      failAt(start, std::string("expected a JSON value (object, array, "
                                "string, number, true, false or null), got ") +
                        describeCurrent());
    advance(n);
  }

  Value parseValue(int depth) {
    if (depth > kMaxDepth)
      fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    Value v;
    v.loc = here();
    char c = peek();
    switch (c) {
    case '{':
      parseObject(v, depth);
      return v;
    case '[':
      parseArray(v, depth);
      return v;
    case '"':
      v.kind = Value::Kind::String;
      v.text = parseString();
      return v;
    case 't':
      expectLiteral("true");
      v.kind = Value::Kind::Bool;
      v.boolean = true;
      return v;
    case 'f':
      expectLiteral("false");
      v.kind = Value::Kind::Bool;
      v.boolean = false;
      return v;
    case 'n':
      expectLiteral("null");
      v.kind = Value::Kind::Null;
      return v;
    default:
      if (c == '-' || (c >= '0' && c <= '9')) {
        parseNumber(v);
        return v;
      }
      fail("expected a JSON value (object, array, string, number, true, "
           "false or null), got " + describeCurrent());
    }
  }

  void parseObject(Value &v, int depth) {
    v.kind = Value::Kind::Object;
    advance(); // '{'
    skipWhitespace();
    if (peek() == '}') {
      advance();
      return;
    }
    // Where each key first appears. A search tree rather than a scan of the
    // members: a scan made an object of n keys cost O(n^2) (200,000 keys
    // took over 30 s), and a tree keeps O(n log n) whatever the keys are.
    std::map<std::string, Location> seen;
    while (true) {
      skipWhitespace();
      if (peek() != '"')
        fail("expected a string key in object, got " + describeCurrent());
      Location keyLoc = here();
      std::string key = parseString();
      auto [first, inserted] = seen.emplace(key, keyLoc);
      if (!inserted)
        failAt(keyLoc, "duplicate key \"" + key + "\" (first at line " +
                           std::to_string(first->second.line) + ", column " +
                           std::to_string(first->second.column) + ")");
      skipWhitespace();
      if (peek() != ':')
        fail("expected ':' after object key \"" + key + "\", got " +
             describeCurrent());
      advance();
      skipWhitespace();
      Value member = parseValue(depth + 1);
      v.object.emplace_back(std::move(key), std::move(member));
      skipWhitespace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == '}') {
        advance();
        return;
      }
      fail("expected ',' or '}' after object member, got " +
           describeCurrent());
    }
  }

  void parseArray(Value &v, int depth) {
    v.kind = Value::Kind::Array;
    advance(); // '['
    skipWhitespace();
    if (peek() == ']') {
      advance();
      return;
    }
    while (true) {
      skipWhitespace();
      v.array.push_back(parseValue(depth + 1));
      skipWhitespace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() == ']') {
        advance();
        return;
      }
      fail("expected ',' or ']' after array element, got " +
           describeCurrent());
    }
  }

  unsigned parseHex4() {
    unsigned value = 0;
    for (int k = 0; k < 4; ++k) {
      char c = peek();
      unsigned d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        fail("expected 4 hexadecimal digits after \\u, got " +
             describeCurrent());
      value = value * 16 + d;
      advance();
    }
    return value;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  /// The length of the well-formed UTF-8 sequence at `pos` (Unicode
  /// Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), or
  /// 0 if the bytes there are not one.
  size_t utf8SequenceLength() const {
    auto byte = [&](size_t k) -> unsigned {
      return pos + k < text.size() ? static_cast<unsigned char>(text[pos + k])
                                   : 0u;
    };
    auto in = [](unsigned b, unsigned lo, unsigned hi) {
      return b >= lo && b <= hi;
    };
    unsigned lead = byte(0);
    // The range of the second byte depends on the lead byte; the others
    // are any continuation byte.
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (in(lead, 0xC2, 0xDF)) {
      n = 2;
    } else if (in(lead, 0xE0, 0xEF)) {
      n = 3;
      lo = lead == 0xE0 ? 0xA0 : 0x80;
      hi = lead == 0xED ? 0x9F : 0xBF;
    } else if (in(lead, 0xF0, 0xF4)) {
      n = 4;
      lo = lead == 0xF0 ? 0x90 : 0x80;
      hi = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
      return 0;
    }
    if (!in(byte(1), lo, hi))
      return 0;
    for (size_t k = 2; k < n; ++k)
      if (!in(byte(k), 0x80, 0xBF))
        return 0;
    return n;
  }

  /// "byte 0xFF", "bytes 0xE2 0x28", ... for an ill-formed sequence at
  /// `pos`: the lead byte and the bytes it claims, as far as the file goes.
  std::string describeBadUtf8() const {
    unsigned char lead = static_cast<unsigned char>(text[pos]);
    size_t claimed = lead >= 0xF0 && lead <= 0xF7   ? 4
                     : lead >= 0xE0 && lead <= 0xEF ? 3
                     : lead >= 0xC0 && lead <= 0xDF ? 2
                                                    : 1;
    size_t shown = std::min(claimed, text.size() - pos);
    std::string out = shown == 1 ? "byte" : "bytes";
    for (size_t k = 0; k < shown; ++k) {
      char buf[8];
      std::snprintf(buf, sizeof buf, " 0x%02X",
                    static_cast<unsigned char>(text[pos + k]));
      out += buf;
    }
    if (shown < claimed)
      out += " cut off by the end of the file";
    return out;
  }

  std::string parseString() {
    Location start = here();
    advance(); // opening quote
    std::string out;
    while (true) {
      if (atEnd())
        failAt(start, "unterminated string (expected a closing '\"')");
      char c = text[pos];
      if (c == '"') {
        advance();
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        fail(std::string("expected a closing '\"' or a string character, "
                         "got ") +
             describeCurrent() +
             (c == '\n' ? " (a newline; strings cannot span lines)"
                        : " (control characters must be escaped)"));
      if (static_cast<unsigned char>(c) >= 0x80) {
        // RFC 8259 text is UTF-8; an ill-formed sequence would otherwise
        // reach kernel names and file paths as bytes no tool can print.
        size_t n = utf8SequenceLength();
        if (n == 0)
          fail("invalid UTF-8 in a string: " + describeBadUtf8() +
               " (JSON text must be UTF-8)");
        out.append(text, pos, n);
        advance(n);
        continue;
      }
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      advance(); // backslash
      char e = peek();
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        advance();
        break;
      case 'b':
        out += '\b';
        advance();
        break;
      case 'f':
        out += '\f';
        advance();
        break;
      case 'n':
        out += '\n';
        advance();
        break;
      case 'r':
        out += '\r';
        advance();
        break;
      case 't':
        out += '\t';
        advance();
        break;
      case 'u': {
        advance();
        unsigned cp = parseHex4();
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (peek() != '\\' || pos + 1 >= text.size() || text[pos + 1] != 'u')
            fail("expected a low surrogate \\uDC00-\\uDFFF after a high "
                 "surrogate");
          advance(2);
          unsigned lo = parseHex4();
          if (lo < 0xDC00 || lo > 0xDFFF)
            fail("expected a low surrogate \\uDC00-\\uDFFF after a high "
                 "surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          fail("unpaired low surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        fail("expected an escape character (\" \\ / b f n r t u) after "
             "'\\', got " +
             describeCurrent());
      }
    }
  }

  void parseNumber(Value &v) {
    size_t start = pos;
    if (peek() == '-')
      advance();
    if (peek() == '0') {
      advance();
      if (peek() >= '0' && peek() <= '9')
        fail("expected '.', 'e' or the end of the number after a leading "
             "'0' (leading zeros are not allowed)");
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        advance();
    } else {
      fail("expected a digit in number, got " + describeCurrent());
    }
    if (peek() == '.') {
      advance();
      if (!(peek() >= '0' && peek() <= '9'))
        fail("expected a digit after the decimal point, got " +
             describeCurrent());
      while (peek() >= '0' && peek() <= '9')
        advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      if (!(peek() >= '0' && peek() <= '9'))
        fail("expected a digit in the exponent, got " + describeCurrent());
      while (peek() >= '0' && peek() <= '9')
        advance();
    }
    v.kind = Value::Kind::Number;
    v.text = text.substr(start, pos - start);
    // strtod follows the C locale unless the program changed it; attnrt
    // never does.
    v.number = std::strtod(v.text.c_str(), nullptr);
  }
};

} // namespace

Value parse(const std::string &text, const std::string &fileName) {
  return Parser(text, fileName).parseDocument();
}

Value parseFile(const std::string &path) {
  return parse(readFile(path, "JSON file"), path);
}

} // namespace attnrt::json

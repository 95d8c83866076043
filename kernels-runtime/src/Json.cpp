//===- Json.cpp - located JSON values for kernel manifests ---------------===//

#include "attnrt/Json.h"
#include "attnrt/Error.h"
#include "attnrt/Util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iterator>
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

constexpr int kMaxDepth = 200;

/// Maps byte offsets of the document to 1-based lines and columns (columns
/// count characters: UTF-8 continuation bytes do not start a column).
/// Offsets are asked for in increasing order, so it walks the text once.
class LineColumnMap {
public:
  explicit LineColumnMap(const std::string &text) : text(text) {}

  Location at(size_t offset) {
    offset = std::min(offset, text.size());
    if (offset < walked)
      walked = 0, here = Location{};
    for (; walked < offset; ++walked) {
      if (text[walked] == '\n')
        here = Location{here.line + 1, 1};
      else if ((static_cast<unsigned char>(text[walked]) & 0xC0) != 0x80)
        ++here.column;
    }
    return here;
  }

private:
  const std::string &text;
  size_t walked = 0;
  Location here;
};

/// A character iterator over the document that records how many bytes the
/// parser has taken: nlohmann's SAX events carry no position, but the lexer
/// reads one character at a time and calls back right after the token's
/// last character (one character of lookahead after a number), so the
/// count locates every token.
class CountingIterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  CountingIterator(const char *at, size_t *taken, const char *base)
      : at(at), taken(taken), base(base) {}
  reference operator*() const { return *at; }
  CountingIterator &operator++() {
    ++at;
    *taken = static_cast<size_t>(at - base);
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator &o) const { return at == o.at; }
  bool operator!=(const CountingIterator &o) const { return at != o.at; }

private:
  const char *at;
  size_t *taken;
  const char *base;
};

bool isNumberCharacter(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
         c == 'e' || c == 'E';
}

/// Builds the located Value tree from nlohmann's SAX events and turns its
/// parse errors into "<file>:<line>:<column>: <message>".
class LocatedTreeBuilder {
public:
  LocatedTreeBuilder(const std::string &text, const std::string &fileName,
                     const size_t &taken)
      : text(text), fileName(fileName), taken(taken), lines(text) {}

  // The nlohmann SAX interface.
  bool null() { return scalar(literalValue(Value::Kind::Null, 4)); }
  bool boolean(bool b) {
    Value v = literalValue(Value::Kind::Bool, b ? 4 : 5);
    v.boolean = b;
    return scalar(std::move(v));
  }
  bool number_integer(int64_t) { return scalar(numberValue()); }
  bool number_unsigned(uint64_t) { return scalar(numberValue()); }
  bool number_float(double, const std::string &) {
    return scalar(numberValue());
  }
  bool string(std::string &s) {
    Value v;
    v.kind = Value::Kind::String;
    v.loc = lines.at(stringStart());
    v.text = std::move(s);
    return scalar(std::move(v));
  }
  template <typename Binary> bool binary(Binary &) { return false; }
  bool start_object(size_t) { return open(Value::Kind::Object); }
  bool start_array(size_t) { return open(Value::Kind::Array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string &k) {
    Location at = lines.at(stringStart());
    auto [first, inserted] = open_.back().keys.emplace(k, at);
    if (!inserted)
      return stop(at, "duplicate key \"" + k + "\" (first at line " +
                          std::to_string(first->second.line) + ", column " +
                          std::to_string(first->second.column) + ")");
    pendingKey = std::move(k);
    return true;
  }
  template <typename Exception>
  bool parse_error(size_t position, const std::string &, const Exception &e) {
    std::string message = describeParseError(e.what());
    return stop(lines.at(errorOffset(position, message)), message);
  }

  /// The document, or the first error thrown as attnrt::Error.
  Value finish(bool parsed) {
    if (!error.empty())
      throw Error(error, kExitInput);
    if (!parsed || !done)
      throw Error(fileName + ":1:1: expected a JSON value", kExitInput);
    return std::move(root);
  }

private:
  struct OpenContainer {
    Value *value;
    std::map<std::string, Location> keys; // objects: first location per key
  };

  const std::string &text;
  const std::string &fileName;
  const size_t &taken; // bytes the lexer has read so far
  LineColumnMap lines;
  Value root;
  bool done = false;
  std::vector<OpenContainer> open_;
  std::string pendingKey;
  std::string error;

  bool stop(Location at, const std::string &message) {
    if (error.empty())
      error = fileName + ":" + std::to_string(at.line) + ":" +
              std::to_string(at.column) + ": " + message;
    return false;
  }

  /// The opening quote of the string whose closing quote is at `close`:
  /// the nearest '"' before it that no backslash escapes.
  size_t quoteBefore(size_t close) const {
    for (size_t i = close; i-- > 0;) {
      if (text[i] != '"')
        continue;
      size_t slashes = 0;
      while (slashes < i && text[i - 1 - slashes] == '\\')
        ++slashes;
      if (slashes % 2 == 0)
        return i;
    }
    return 0;
  }

  /// The start of the string token the lexer has just read.
  size_t stringStart() const { return quoteBefore(taken - 1); }

  /// Where to show a parse error. nlohmann's `position` counts the bytes
  /// it read (the end of the file counts as one): a malformed string or
  /// number is shown at the byte where the lexer stopped, a malformed
  /// literal and a token out of place ("unexpected ...; expected ...") where
  /// the token starts.
  size_t errorOffset(size_t position, const std::string &message) const {
    size_t last = std::min(position == 0 ? 0 : position - 1, text.size());
    auto isLetter = [](char c) { return c >= 'a' && c <= 'z'; };
    // A malformed literal ("tru", "nul,") is read up to the character that
    // does not fit, or to the end of the file: show the literal.
    if (message.find("invalid literal") != std::string::npos && last > 0 &&
        (last == text.size() || !isLetter(text[last])) &&
        isLetter(text[last - 1]))
      --last;
    if (message.find("invalid string") != std::string::npos ||
        message.find("invalid number") != std::string::npos ||
        last == text.size())
      return last;
    size_t start = last;
    if (text[last] == '"')
      return quoteBefore(last);
    if (text[last] >= '0' && text[last] <= '9') {
      while (start > 0 && isNumberCharacter(text[start - 1]))
        --start;
    } else if (isLetter(text[last])) {
      while (start > 0 && isLetter(text[start - 1]))
        --start;
    }
    return start;
  }

  Value literalValue(Value::Kind kind, size_t length) {
    Value v;
    v.kind = kind;
    v.loc = lines.at(taken - length);
    return v;
  }

  /// A number keeps its literal text. The lexer has read one character past
  /// the number unless the number ends the document; a number always ends
  /// with a digit.
  Value numberValue() {
    size_t end = taken;
    if (end > 0 && !(text[end - 1] >= '0' && text[end - 1] <= '9'))
      --end;
    size_t start = end;
    while (start > 0 && isNumberCharacter(text[start - 1]))
      --start;
    Value v;
    v.kind = Value::Kind::Number;
    v.loc = lines.at(start);
    v.text = text.substr(start, end - start);
    // strtod follows the C locale unless the program changed it; attnrt
    // never does.
    v.number = std::strtod(v.text.c_str(), nullptr);
    return v;
  }

  /// Places `v` in the open container (or as the document) and returns it.
  Value *place(Value v) {
    if (open_.empty()) {
      root = std::move(v);
      done = true;
      return &root;
    }
    Value &parent = *open_.back().value;
    if (parent.isArray()) {
      parent.array.push_back(std::move(v));
      return &parent.array.back();
    }
    parent.object.emplace_back(std::move(pendingKey), std::move(v));
    return &parent.object.back().second;
  }

  bool scalar(Value v) {
    place(std::move(v));
    return true;
  }

  bool open(Value::Kind kind) {
    Location at = lines.at(taken - 1);
    if (open_.size() >= static_cast<size_t>(kMaxDepth))
      return stop(at, "nesting deeper than " + std::to_string(kMaxDepth) +
                          " levels");
    Value v;
    v.kind = kind;
    v.loc = at;
    // The container's own slot stays put while it is open: its parent
    // grows only after it closes.
    open_.push_back(OpenContainer{place(std::move(v)), {}});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  /// nlohmann's message without its "[json.exception...] " and "parse error
  /// at line L, column C: " prefixes (we give the location in our own form),
  /// and with bytes that are not printable ASCII written as \xNN.
  static std::string describeParseError(const std::string &what) {
    std::string message = what;
    if (message.rfind("[json.exception.", 0) == 0 &&
        message.find("] ") != std::string::npos)
      message = message.substr(message.find("] ") + 2);
    if (message.rfind("parse error at line ", 0) == 0 &&
        message.find(": ") != std::string::npos)
      message = message.substr(message.find(": ") + 2);
    std::string out;
    for (char c : message) {
      unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", u);
        out += buf;
      } else {
        out += c;
      }
    }
    return out;
  }
};

} // namespace

Value parse(const std::string &text, const std::string &fileName) {
  // Said here rather than by nlohmann, whose wording for it changed between
  // versions (3.12: "attempting to parse an empty input").
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(fileName + ":1:1: expected a JSON value, got an empty document",
                kExitInput);
  size_t taken = 0;
  LocatedTreeBuilder builder(text, fileName, taken);
  const char *base = text.data();
  bool parsed = nlohmann::json::sax_parse(
      CountingIterator(base, &taken, base),
      CountingIterator(base + text.size(), &taken, base), &builder);
  return builder.finish(parsed);
}

Value parseFile(const std::string &path) {
  return parse(readFile(path, "JSON file"), path);
}

} // namespace attnrt::json

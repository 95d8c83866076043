//===- Json.h - located JSON values for kernel manifests --------*- C++ -*-===//
//
// RFC 8259 JSON read with nlohmann/json's SAX parser (its lexer checks the
// grammar, \uXXXX escapes and surrogate pairs, and that strings are UTF-8),
// into a tree of Values that remember the line and column where they start,
// so that manifest validation can point at the offending field. nlohmann's
// own tree keeps no positions, hence this one. On top of the grammar: an
// object may not repeat a key, and nesting is at most 200 levels deep.
// Errors are thrown as attnrt::Error with the text
// "<file>:<line>:<column>: <what was expected>". Only Json.cpp includes
// nlohmann's header.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_JSON_H
#define ATTNRT_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnrt::json {

struct Location {
  int line = 1, column = 1;
};

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  Location loc;
  bool boolean = false;
  double number = 0.0;
  std::string text; // string contents, or the literal text of a number
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object; // in file order

  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }
  /// A number written without fraction or exponent that fits in int64.
  bool isInteger() const;
  /// The value of an integer number (isInteger() must hold).
  int64_t asInteger() const;

  /// The member `key` of an object, or null if absent.
  const Value *find(const std::string &key) const;

  /// "null", "boolean", "number", "string", "array", "object".
  const char *kindName() const;
  /// A short rendering for messages: strings quoted, containers abbreviated.
  std::string brief() const;
};

/// The name of a JSON kind, as in Value::kindName.
const char *kindName(Value::Kind kind);

/// Parses `text`; `fileName` only appears in error messages.
Value parse(const std::string &text, const std::string &fileName);

/// Reads and parses a file; a missing or unreadable file is an error too.
Value parseFile(const std::string &path);

} // namespace attnrt::json

#endif // ATTNRT_JSON_H

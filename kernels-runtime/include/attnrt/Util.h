//===- Util.h - small file and string helpers -------------------*- C++ -*-===//

#ifndef ATTNRT_UTIL_H
#define ATTNRT_UTIL_H

#include <cstdint>
#include <string>
#include <vector>

namespace attnrt {

/// The contents of a regular file; throws attnrt::Error (kExitInput) with
/// "cannot read <what> '<path>'[ (<note>)]: <reason>" otherwise.
std::string readFile(const std::string &path, const std::string &what,
                     const std::string &note = std::string());

/// The directory part of a path ("." when there is none).
std::string directoryOf(const std::string &path);

/// `relative` resolved against `directory` (kept as is when absolute).
std::string joinPath(const std::string &directory, const std::string &relative);

/// "[2, 8, 128, 64]"; a negative size (kRuntimeSize) is "null".
std::string formatShape(const std::vector<int64_t> &shape);

/// printf into a std::string.
std::string format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/// "1.50 GiB (1610612736 bytes)".
std::string formatBytes(uint64_t bytes);

} // namespace attnrt

#endif // ATTNRT_UTIL_H

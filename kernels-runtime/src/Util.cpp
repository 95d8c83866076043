//===- Util.cpp - small file and string helpers ---------------------------===//

#include "attnrt/Util.h"
#include "attnrt/Error.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace attnrt {

std::string readFile(const std::string &path, const std::string &what,
                     const std::string &note) {
  auto fail = [&](const std::string &reason) {
    throw Error("cannot read " + what + " '" + path + "'" +
                    (note.empty() ? std::string() : " (" + note + ")") +
                    ": " + reason,
                kExitInput);
  };
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    fail("not a regular file");
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    fail(std::strerror(errno));
  std::string data;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    data.append(buf, n);
  bool bad = std::ferror(f);
  int err = errno;
  std::fclose(f);
  if (bad)
    fail(std::strerror(err));
  return data;
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

std::string joinPath(const std::string &directory,
                     const std::string &relative) {
  if (relative.empty() || relative[0] == '/' || directory.empty() ||
      directory == ".")
    return relative;
  if (directory.back() == '/')
    return directory + relative;
  return directory + "/" + relative;
}

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") +
         (shape[i] < 0 ? std::string("null") : std::to_string(shape[i]));
  return s + "]";
}

std::string format(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? size_t(n) : 0, '\0');
  if (n > 0)
    std::vsnprintf(&out[0], size_t(n) + 1, fmt, args);
  va_end(args);
  return out;
}

std::string formatBytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0)
    return std::to_string(bytes) + " bytes";
  return format("%.2f %s (%llu bytes)", v, units[u],
                (unsigned long long)bytes);
}

} // namespace attnrt

//===- Error.h - attnrt error type and exit codes ---------------*- C++ -*-===//
//
// Every failure in attnrt is reported by throwing attnrt::Error; the message
// is complete (file, call, reason) and the exit code says what kind of
// failure it was. attn-run catches it in main and exits with that code.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_ERROR_H
#define ATTNRT_ERROR_H

#include <stdexcept>
#include <string>

namespace attnrt {

/// Exit codes of attn-run.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // a validation failure or a CUDA error while running
  kExitNoDevice = 2, // no CUDA driver / no GPU (cuInit or device query)
  kExitInput = 3,    // bad command line, manifest, JSON or missing file
};

class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message, int exitCode = kExitFailure)
      : std::runtime_error(message), code(exitCode) {}
  int exitCode() const { return code; }

private:
  int code;
};

} // namespace attnrt

#endif // ATTNRT_ERROR_H

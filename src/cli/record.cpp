// `tabula record`: a game record between its JSON (Session::record()) and its text (docs/records.md).
#include "cli/commands.h"
#include "core/record_text.h"

#include <istream>
#include <ostream>

namespace tabula {

int record_command(bool to_text, std::istream& in, std::ostream& out, std::ostream& err) {
  // One byte more than a text record may hold, so an oversized input is refused rather than cut.
  std::string input;
  char buffer[65536];
  while (input.size() <= kMaxRecordTextBytes && in.read(buffer, sizeof buffer).gcount() > 0)
    input.append(buffer, static_cast<size_t>(in.gcount()));
  try {
    if (to_text) {
      if (input.size() > kMaxRecordTextBytes) fail(ErrorKind::bad_request, "the record is over 1 MB");
      json record = json::parse(input, nullptr, /*allow_exceptions=*/false);
      if (record.is_discarded()) fail(ErrorKind::bad_request, "the input is not JSON");
      out << record_text(record);
    } else {
      out << record_from_text(input).dump(2) << "\n";
    }
    return 0;
  } catch (const GameError& e) {
    err << "tabula record: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace tabula

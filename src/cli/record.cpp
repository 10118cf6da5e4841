// `tabula record`: a game record between its JSON (Session::record()) and its text (docs/records.md).
#include "cli/commands.h"
#include "core/record_text.h"

#include <istream>
#include <ostream>

namespace tabula {

int record_command(bool to_text, std::istream& in, std::ostream& out, std::ostream& err) {
  // Read a little past the limit at most, so an oversized input is refused rather than cut and read whole.
  std::string input;
  char buffer[65536];
  while (input.size() <= kMaxRecordTextBytes && in.read(buffer, sizeof buffer).gcount() > 0)
    input.append(buffer, static_cast<size_t>(in.gcount()));
  try {
    if (to_text) {
      if (input.size() > kMaxRecordTextBytes) fail(ErrorKind::bad_request, "the record is over 1 MB");
      // A record nests a few levels deep; deeper input is refused as it is read (writing it would recurse).
      bool too_deep = false;
      json record = json::parse(
          input,
          [&](int depth, json::parse_event_t, json&) {
            if (depth > 32) too_deep = true;
            return !too_deep;
          },
          /*allow_exceptions=*/false);
      if (too_deep) fail(ErrorKind::bad_request, "the record nests deeper than 32 levels");
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

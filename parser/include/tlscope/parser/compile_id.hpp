// Compile ids in the forms PyTorch and tlparse print them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tlscope/parser/event.hpp"

namespace tlscope::parser {

// PyTorch CompileId/TraceId form: "0/1", "0/1_2" (attempt != 0), "!0/3/0", "!0"; empty if the
// context has no ids at all.
std::string compile_id_string(const CompileContext& ctx);

// Parses the PyTorch form used inside payloads ("0/0", "!1/2/0", "0/1_1"), and tlparse's display
// form of the same ids ("[0/1_1]", "[!0/3/0]", "[!0/-/-]" = "!0"). "None" and malformed text give
// nullopt. `attempt` is set only when the text has an "_N" suffix.
std::optional<CompileContext> parse_compile_id(std::string_view text);

}  // namespace tlscope::parser

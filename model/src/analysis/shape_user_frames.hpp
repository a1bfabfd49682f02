// The user frame of each symbolic-shapes record, picked in C++ from the stacks in its metadata.
#pragma once

#include <sqlite3.h>

#include <string_view>

namespace tlscope::model::analysis {

// Fills temp.shape_user_frames(event_id, file, line, name, loc), keyed by event_id, for the
// events whose kind is in `kinds_sql` (an SQL list "('a', 'b')"): the innermost frame of user
// code (not torch/, not the Python standard library) in the record's `user_stack`, else in its
// `stack`, else the innermost frame of `user_stack`; no row when there is none. A frame's
// `filename` is an index into the file's `str` entries: the one logged last before the record.
void build_shape_user_frames(sqlite3* db, std::string_view kinds_sql);

}  // namespace tlscope::model::analysis

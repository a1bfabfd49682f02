# Run as `cmake -DLIST=files.txt -DSTAMP=... -P layer_check.cmake` (tlscope_forbid_model_headers):
# fails when one of the files LIST names includes a model/ header or names the model:: namespace
# outside a comment, so a front end reaches the model only through views/.
file(READ "${LIST}" files)
set(failed FALSE)
foreach(file IN LISTS files)
  file(READ "${file}" text)
  # Comments may name the model (to say where a rule comes from); code may not.
  string(REGEX REPLACE "//[^\n]*" "" code "\n${text}")
  string(REGEX MATCH "#include[ \t]*[\"<]tlscope/model/[^\n]*|[^A-Za-z0-9_]model::[A-Za-z_]*"
         found "${code}")
  if(found)
    string(FIND "${code}" "${found}" at)
    string(SUBSTRING "${code}" 0 ${at} before)
    string(REGEX MATCHALL "\n" newlines "${before}")
    list(LENGTH newlines line)  # the leading "\n" makes this the 1-based line number
    string(REGEX REPLACE "^[^A-Za-z0-9_#]" "" found "${found}")
    message(NOTICE "${file}:${line}: a front end reaches the model only through views/ "
                   "(docs/architecture.md, \"The layers\"): ${found}")
    set(failed TRUE)
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "the layer check failed")
endif()
file(TOUCH "${STAMP}")

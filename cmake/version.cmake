# Writes ${OUT} with SSDVP_VERSION and SSDVP_GIT (commit, "-dirty" if a
# tracked file outside docs/ has changes: the documentation and the results
# pages' data build into nothing, and regenerating every page in one pass
# changes them while the next page's script rebuilds); rewrites it only when
# the text changes, so builds stay incremental. Run at every build by the
# ssdvp_version target.
execute_process(COMMAND git -C "${SRC}" describe --always --abbrev=12
                OUTPUT_VARIABLE git OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR git STREQUAL "")
  set(git "nogit")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no -- . ":(exclude)docs"
                  OUTPUT_VARIABLE changed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changed STREQUAL "")
    set(git "${git}-dirty")
  endif()
endif()
set(text "#define SSDVP_VERSION \"${VERSION}\"\n#define SSDVP_GIT \"${git}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

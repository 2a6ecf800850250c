# Writes ${OUT} with SSDVP_VERSION and SSDVP_GIT (commit, "-dirty" if the tree
# has changes); rewrites it only when the text changes, so builds stay
# incremental. Run at every build by the ssdvp_version target.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE git OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR git STREQUAL "")
  set(git "nogit")
endif()
set(text "#define SSDVP_VERSION \"${VERSION}\"\n#define SSDVP_GIT \"${git}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

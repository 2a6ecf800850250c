# cost_table.cmake - the native CPU's cycle-cost defaults from the calibrated
# table configs/cpu_cost.yaml (written by scripts/calibrate.sh).
#
# Reads the rows "    <op>: <cycles>" under cpu.cost, checks every op against
# firmware/hal/fw_ops.def (an op the firmware no longer has is an error), and
# writes ${OUT}: one {"<op>", <cycles>} initializer per row. Ops absent from
# the table keep fw_ops.def's estimate. Runs at configure time; editing the
# YAML re-runs it.
function(ssdvp_cost_table yaml def out)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${yaml} ${def})
  file(STRINGS ${def} def_lines REGEX "^FW_OP\\(")
  set(ops)
  foreach(l IN LISTS def_lines)
    string(REGEX MATCH "^FW_OP\\(([a-z_0-9]+)," m "${l}")
    list(APPEND ops ${CMAKE_MATCH_1})
  endforeach()
  set(body "/* Generated from configs/cpu_cost.yaml by cmake/cost_table.cmake: do not edit. */\n")
  if(EXISTS ${yaml})
    file(STRINGS ${yaml} rows REGEX "^    [a-z_0-9]+: *[0-9]+")
    foreach(r IN LISTS rows)
      string(REGEX MATCH "^    ([a-z_0-9]+): *([0-9]+)" m "${r}")
      if(NOT CMAKE_MATCH_1 IN_LIST ops)
        message(FATAL_ERROR "${yaml}: '${CMAKE_MATCH_1}' is not a firmware operation of ${def}")
      endif()
      string(APPEND body "{\"${CMAKE_MATCH_1}\", ${CMAKE_MATCH_2}},\n")
    endforeach()
  endif()
  file(CONFIGURE OUTPUT ${out} CONTENT "${body}")
endfunction()

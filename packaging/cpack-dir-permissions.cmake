# CPack pre-build script: gives every directory of the staged package 0755. install() creates them with
# mkdir, which the builder's umask trims (umask 077 gives 0700: lintian reports it, and once installed
# users could not read the package's own directories); chmod is not subject to the umask.
if(NOT IS_DIRECTORY "${CPACK_TEMPORARY_DIRECTORY}")
  message(FATAL_ERROR "CPACK_TEMPORARY_DIRECTORY is not a directory: '${CPACK_TEMPORARY_DIRECTORY}'")
endif()
file(GLOB_RECURSE entries LIST_DIRECTORIES true "${CPACK_TEMPORARY_DIRECTORY}/*")
set(dirs "${CPACK_TEMPORARY_DIRECTORY}")
foreach(entry IN LISTS entries)
  if(IS_DIRECTORY "${entry}" AND NOT IS_SYMLINK "${entry}")
    list(APPEND dirs "${entry}")
  endif()
endforeach()
file(CHMOD ${dirs} DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
                                          WORLD_EXECUTE)

# ARB_CHECK_CFLAG(FLAG, [ACTION-IF-ACCEPTED], [ACTION-IF-NOT])
# -------------------------------------------------------------
# Runs ACTION-IF-ACCEPTED if $CC compiles a trivial program with FLAG added
# and without a single warning (-Werror turns an unknown -W option into an
# error).  CFLAGS is left as it was.
AC_DEFUN([ARB_CHECK_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  arb_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS -Werror $1"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [CFLAGS=$arb_save_CFLAGS; AC_MSG_RESULT([yes]); $2],
    [CFLAGS=$arb_save_CFLAGS; AC_MSG_RESULT([no]); $3])
])

# Included by the project's makefiles, so that a build talks as Kbuild
# does: one short line per step ("  CC      nicdiag", "  SIGN    ..."), and
# with V=1 the full commands instead.
#
#   $(call say,WHAT,NAME)   a recipe line of its own: the step's short line
#   $(Q)                    before each command of a recipe
#   $(QOUT)                 after a command whose stdout only chatters
#                           (lskel-sign's "signed ...", lskel_tamper's
#                           note), to drop it quietly; errors go to
#                           stderr, and still show

V ?= 0
ifeq ($(V),1)
Q :=
QOUT :=
say =
else
Q := @
QOUT := >/dev/null
say = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif

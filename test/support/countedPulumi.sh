#!/bin/sh
# The PULUMI_CLI given to processes the tests start that run `pulumi` themselves (recover): it counts the
# command (see pulumiCount.ts), then becomes the built CLI, keeping its process id for signals.
if [ -n "$GITBOOK_TEST_PULUMI_COUNT" ]; then
  for a; do case "$a" in -*) ;; *) echo "$a" >> "$GITBOOK_TEST_PULUMI_COUNT/sh-$$"; break ;; esac; done
fi
exec "$GITBOOK_TEST_PULUMI_REAL" "$@"

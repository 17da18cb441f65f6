/^CPU/d
s/^.*:tick-100ms //

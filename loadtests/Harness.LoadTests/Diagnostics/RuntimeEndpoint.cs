namespace Harness.LoadTests.Diagnostics;

/// <summary>
/// Where a target's .NET runtime takes a diagnostics connection: its process id (the runtime's own socket,
/// <c>$TMPDIR/dotnet-diagnostic-PID-…-socket</c>, found by the client), or that socket's path, for a process in
/// another mount or pid namespace (a container whose <c>/tmp</c>, or <c>TMPDIR</c>, is a volume the runner sees).
/// </summary>
internal sealed record RuntimeEndpoint
{
    private RuntimeEndpoint(int? processId, string? socketPath)
    {
        ProcessId = processId;
        SocketPath = socketPath;
    }

    public int? ProcessId { get; }

    public string? SocketPath { get; }

    public static RuntimeEndpoint ForProcess(int processId) =>
        processId > 0 ? new(processId, null) : throw new ArgumentOutOfRangeException(nameof(processId), processId, "a process id is positive");

    public static RuntimeEndpoint ForSocket(string path) =>
        Path.IsPathFullyQualified(path) ? new(null, path) : throw new ArgumentException($"'{path}' is not an absolute path", nameof(path));

    /// <summary>As a run event says it: <c>pid 4242</c>, <c>diag=/tmp/…</c>.</summary>
    public override string ToString() => ProcessId is { } pid ? $"pid {pid}" : $"diag={SocketPath}";
}

namespace Harness.LoadTests.Targets;

/// <summary>Services that are already running (compose, Kubernetes): one mode, named by <c>--mode-label</c>.</summary>
public sealed class ExternalTargets(IReadOnlyList<ServiceTarget> targets) : ITargetProvider
{
    public IReadOnlyList<string> Modes { get; } = [.. targets.Select(t => t.Mode).Distinct()];

    public Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<ServiceTarget>>([.. targets.Where(t => t.Mode == mode)]);

    public Task ReleaseAsync(string mode) => Task.CompletedTask;

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>
    /// Parses <c>--target stack=url[,metrics=url]</c>. Without <c>metrics=</c>, SOAP is scraped at its own address
    /// and gRPC at the next port up, the services' default admin port.
    /// </summary>
    /// <exception cref="FormatException">The value names no known stack or no absolute http URL.</exception>
    public static ServiceTarget Parse(string value, string modeLabel)
    {
        var parts = value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var head = parts.Length > 0 ? parts[0].Split('=', 2) : [];
        if (head.Length != 2 || !Stacks.All.Contains(head[0]) || !TryHttpUri(head[1], out var address))
        {
            throw new FormatException(
                $"--target '{value}' must look like soap=http://host:port or grpc=http://host:port[,metrics=http://host:port]; stacks: {string.Join(", ", Stacks.All)}.");
        }

        Uri? metrics = null;
        foreach (var part in parts.Skip(1))
        {
            var pair = part.Split('=', 2);
            if (pair.Length != 2 || pair[0] != "metrics" || !TryHttpUri(pair[1], out metrics))
            {
                throw new FormatException($"--target '{value}': after the address only metrics=http://host:port is accepted; got '{part}'.");
            }
        }

        metrics ??= head[0] == Stacks.Grpc ? new UriBuilder(address) { Port = address.Port + 1 }.Uri : address;
        return new ServiceTarget(head[0], modeLabel, address, metrics);
    }

    private static bool TryHttpUri(string text, out Uri uri) =>
        Uri.TryCreate(text, UriKind.Absolute, out uri!) && uri.Scheme is "http" or "https";
}

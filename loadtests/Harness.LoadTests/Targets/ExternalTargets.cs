namespace Harness.LoadTests.Targets;

/// <summary>
/// Services that are already running (compose, Kubernetes, containers the runner started), grouped by mode: each
/// target's own <c>mode=</c>, else <c>--mode-label</c>. Modes run one after another, in the order first named.
/// </summary>
internal sealed class ExternalTargets(IReadOnlyList<ServiceTarget> targets) : ITargetProvider
{
    public Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<ServiceTarget>>([.. targets.Where(t => t.Mode == mode)]);

    public Task ReleaseAsync(string mode) => Task.CompletedTask;

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>
    /// Parses <c>--target stack=url[,metrics=url][,mode=name]</c>, for either stack. Without <c>metrics=</c>, SOAP is
    /// scraped at its own address and gRPC at the next port up, the services' default admin port; compose, matrix and
    /// Kubernetes point <c>metrics=</c> at the services' <c>Listen__MetricsPort</c>. Without <c>mode=</c>, the target
    /// belongs to <paramref name="modeLabel"/>.
    /// </summary>
    /// <exception cref="FormatException">The value names no known stack or no absolute http URL.</exception>
    public static ServiceTarget Parse(string value, string modeLabel)
    {
        var parts = value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var head = parts.Length > 0 ? parts[0].Split('=', 2) : [];
        if (head.Length != 2 || !Stacks.All.Contains(head[0]) || !TryHttpUri(head[1], out var address))
        {
            throw new FormatException(
                $"--target '{value}' must look like soap=http://host:port or grpc=http://host:port, then optionally ,metrics=http://host:port and ,mode=name; stacks: {string.Join(", ", Stacks.All)}.");
        }

        Uri? metrics = null;
        var mode = modeLabel;
        foreach (var part in parts.Skip(1))
        {
            var pair = part.Split('=', 2);
            var ok = pair.Length == 2 && pair[0] switch
            {
                "metrics" => TryHttpUri(pair[1], out metrics),
                "mode" => IsLabel(mode = pair[1]),
                _ => false,
            };
            if (!ok)
            {
                throw new FormatException(
                    $"--target '{value}': after the address only metrics=http://host:port and mode=name (letters, digits, '-', '_', at most 40) are accepted; got '{part}'.");
            }
        }

        var guessed = metrics is null;
        metrics ??= head[0] == Stacks.Grpc ? new UriBuilder(address) { Port = address.Port + 1 }.Uri : address;
        return new ServiceTarget(head[0], mode, address, metrics) { MetricsGuessed = guessed };
    }

    // A mode becomes part of series ids and file names (docs/raw-format.md).
    internal static bool IsLabel(string text) =>
        text.Length is > 0 and <= 40 && text.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_');

    private static bool TryHttpUri(string text, out Uri uri) =>
        Uri.TryCreate(text, UriKind.Absolute, out uri!) && uri.Scheme is "http" or "https";
}

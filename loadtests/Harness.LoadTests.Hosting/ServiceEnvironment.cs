using System.Collections;

namespace Harness.LoadTests.Hosting;

/// <summary>
/// Environment variables meant for the local services alone: <c>HARNESS_SERVICE_NAME=value</c> in the harness's
/// environment becomes <c>NAME=value</c> in each service it starts, and nowhere else. A runtime setting such as a
/// GC heap limit (<c>HARNESS_SERVICE_DOTNET_GCHeapHardLimit</c>) then bounds the service without bounding the load
/// runner beside it, which a plain <c>DOTNET_…</c> variable, inherited by both, would.
/// </summary>
public static class ServiceEnvironment
{
    public const string Prefix = "HARNESS_SERVICE_";

    /// <summary>
    /// The runtime's switch for running socket completions on the socket event threads. Given to the harness, it tunes
    /// the load runner alone; a service gets it only as <c>HARNESS_SERVICE_DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS</c>.
    /// </summary>
    public const string InlineCompletions = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>Variables of the runner's environment that a service it starts must not inherit.</summary>
    public static readonly IReadOnlyList<string> RunnerOnly = [InlineCompletions];

    /// <summary>The service's variables (prefix removed) among <paramref name="environment"/>, sorted by name.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> From(IDictionary environment) =>
        environment.Cast<DictionaryEntry>()
            .Select(e => (Name: (string)e.Key, Value: e.Value as string ?? ""))
            .Where(e => e.Name.Length > Prefix.Length && e.Name.StartsWith(Prefix, StringComparison.Ordinal))
            .Select(e => KeyValuePair.Create(e.Name[Prefix.Length..], e.Value))
            .OrderBy(e => e.Key, StringComparer.Ordinal)
            .ToList();

    /// <summary>The service's variables in this process's environment.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Current() => From(Environment.GetEnvironmentVariables());
}

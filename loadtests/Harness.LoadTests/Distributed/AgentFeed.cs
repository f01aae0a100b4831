using System.Security.Cryptography;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Common;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// <c>--data-feed</c> in a distributed run. Each agent reads the file at its own path (the coordinator carries no
/// data), so the coordinator compares what they read: the file's content, not its path, and the order and seed. The
/// agents then share the rows (<see cref="DataFeed.ShareAmong"/>) rather than each sending the same ones.
/// </summary>
internal static class AgentFeed
{
    /// <returns>Null without a feed; otherwise the text two agents' feeds must agree on, which names what differs.</returns>
    /// <exception cref="UsageException">The file cannot be read again for its digest.</exception>
    public static string? Describe(DataFeed? feed)
    {
        if (feed is null)
        {
            return null;
        }

        string digest;
        try
        {
            using var file = File.OpenRead(feed.Source);
            digest = Convert.ToHexStringLower(SHA256.HashData(file))[..16];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"--data-feed {feed.Source}: cannot be read again for the coordinator ({ex.Message}).");
        }

        var order = feed.Order.ToString().ToLowerInvariant();
        return feed.Order == DataFeedOrder.Circular
            ? $"--data-feed of {feed.Count} rows, sha256 {digest}…, circular"
            : $"--data-feed of {feed.Count} rows, sha256 {digest}…, {order} with --data-feed-seed {feed.Seed}";
    }
}

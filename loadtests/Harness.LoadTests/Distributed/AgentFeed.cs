using Harness.LoadTests.Clients;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// <c>--data-feed</c> in a distributed run. Each agent reads the file at its own path (the coordinator carries no
/// data), so the coordinator compares what they read: the digest of the file's content as it was loaded
/// (<see cref="DataFeed.Digest"/>), not its path, and the order and seed. The
/// agents then share the rows (<see cref="DataFeed.ShareAmong"/>) rather than each sending the same ones.
/// </summary>
internal static class AgentFeed
{
    /// <returns>Null without a feed; otherwise the text two agents' feeds must agree on, which names what differs.</returns>
    public static string? Describe(DataFeed? feed)
    {
        if (feed is null)
        {
            return null;
        }

        var order = feed.Order.ToString().ToLowerInvariant();
        return feed.Order == DataFeedOrder.Circular
            ? $"--data-feed of {feed.Count} rows, sha256 {feed.Digest}…, circular"
            : $"--data-feed of {feed.Count} rows, sha256 {feed.Digest}…, {order} with --data-feed-seed {feed.Seed}";
    }
}

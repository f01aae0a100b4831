using Harness.LoadTests.Clients;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>run --call</c>'s step before any load: resolve the call against the first target (printing what it reads, which
/// may take seconds), say what will be sent, and with <c>--show-reply</c> make one call and print its reply.
/// </summary>
internal static class CallSetup
{
    private static readonly TimeSpan ShowReplyBound = TimeSpan.FromSeconds(30);

    /// <exception cref="CallSetupException">The call cannot be made as given; one line naming what is wrong and what is valid.</exception>
    /// <param name="measurement">The run's <c>--timeout</c> (which bounds what the setup reads) and <c>--max-message-size</c>.</param>
    public static async Task<CallPlan> ResolveAsync(
        IAnsiConsole console, CallRequest request, ServiceTarget target, MeasurementSettings measurement, CancellationToken cancellationToken)
    {
        var plan = await CallResolver.ResolveAsync(
            request, target.ServiceAddress, measurement.CallTimeout, measurement.MaxMessageSize, message => console.MarkupLineInterpolated($"[grey]{message}[/]"), cancellationToken,
            measurement.Tls);
        console.MarkupLineInterpolated($"[grey]--call {plan.Description}; {(request.Template.IsConstant ? "one request, encoded once" : "a request rendered per call")}[/]");
        if (request.Template.Feed is { } feed)
        {
            // The seed is printed whether given or drawn, so a run's random sequence can be taken again with --data-feed-seed.
            var seed = feed.Order == DataFeedOrder.Circular ? "" : $" (--data-feed-seed {feed.Seed})";
            console.MarkupLineInterpolated($"[grey]--data-feed {feed.Source}: {feed.Count} rows of {string.Join(", ", feed.Columns)}, taken {feed.Order.ToString().ToLowerInvariant()}{seed}[/]");
        }

        if (request.ShowReply)
        {
            await ShowReplyAsync(console, plan, target, cancellationToken);
        }

        return plan;
    }

    private static async Task ShowReplyAsync(IAnsiConsole console, CallPlan plan, ServiceTarget target, CancellationToken cancellationToken)
    {
        using var client = plan.NewClient(target.ServiceAddress, ShowReplyBound, null);
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(ShowReplyBound);
        try
        {
            var call = await client.SendAsync(plan.Body.For(1, 1), bounded.Token);
            var reply = call.Body;
            console.WriteLine(call.Stream is { } stream
                ? $"a stream: {stream.MessagesSent} message(s) sent, {stream.MessagesReceived} received; the first reply ({reply.Length} bytes):"
                : $"reply ({reply.Length} bytes):");
            if (call.Stream is not { MessagesReceived: 0 })
            {
                console.WriteLine(await plan.DescribeReply(reply, bounded.Token));
            }
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested && ex is not OutOfMemoryException)
        {
            // A failing call is the load's to measure; the line says what the first one met.
            console.MarkupLineInterpolated($"[yellow]the call before the load failed:[/] {ex.Message}");
        }
    }
}

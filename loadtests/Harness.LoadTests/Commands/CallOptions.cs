using System.CommandLine;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;
using Harness.LoadTests.Common;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>--call</c> and its companions: load any gRPC method (unary or streaming) or SOAP operation of a running service instead of the
/// harness's own two. Checked here for form (which options go together, the data template, the files); the call is
/// resolved against the target (reflection, protoc, WSDL) by <see cref="CallResolver"/> once the options are bound.
/// </summary>
internal sealed class CallOptions
{
    private static readonly TimeSpan MaxStreamInterval = TimeSpan.FromMinutes(1);

    public Option<string?> Call { get; } = new("--call") { Description = "Load one method of a running service instead of the harness's operations: package.Service/Method for a grpc target, an operation name for a soap target; needs --target." };

    public Option<string?> Data { get; } = new("--data") { Description = $"--call's request as JSON (gRPC: the message in protobuf's JSON mapping; SOAP: the input element's children), with placeholders {CallTemplate.Placeholders}; default {{}}." };

    public Option<string?> DataFile { get; } = new("--data-file") { Description = "--data from a file." };

    public Option<string?> DataFeed { get; } = new("--data-feed") { Description = "Rows for --data's {{feed.COLUMN}} placeholders, one row per call: a .csv file with a header row, or .jsonl/.ndjson (one JSON object a line); at most 100 MB and 1,000,000 rows." };

    public Option<string?> DataFeedOrder { get; } = new("--data-feed-order") { Description = "--data-feed's rows in turn, from the first again after the last (circular, default), a uniform draw per call (random), or every row once per pass, each pass in an order of its own (shuffle)." };

    public Option<string?> DataFeedSeed { get; } = new("--data-feed-seed") { Description = "The seed of --data-feed-order random or shuffle, a whole number from 0 to 18446744073709551615: the same seed, file and order take the rows in the same sequence in every run (without it, a new seed each run, printed before the load)." };

    public Option<string[]> Metadata { get; } = new("--metadata") { Description = "A header on every --call request, key=value (gRPC metadata; HTTP headers for SOAP). Repeatable." };

    public Option<string?> Proto { get; } = new("--proto") { Description = "gRPC --call: describe the service with this .proto file (compiled by the protoc beside the runner) instead of the server's reflection." };

    public Option<string[]> ImportPath { get; } = new("--import-path") { Description = "gRPC --call: a folder where --proto's imports are found. Repeatable; default the .proto file's folder." };

    public Option<string?> Protoset { get; } = new("--protoset") { Description = "gRPC --call: describe the service with this descriptor set (protoc --include_imports --descriptor_set_out) instead of the server's reflection." };

    public Option<string?> Wsdl { get; } = new("--wsdl") { Description = "SOAP --call: the service's WSDL, a URL or a file (default the target's ?singleWsdl, then ?wsdl)." };

    public Option<string?> Envelope { get; } = new("--envelope") { Description = "SOAP --call: send this envelope file (a template, placeholders as in --data) instead of one built from the WSDL; --call names the series." };

    public Option<string?> SoapAction { get; } = new("--soap-action") { Description = "SOAP --call: the SOAPAction header (default the WSDL binding's for the operation; empty with --envelope)." };

    public Option<string?> StreamInterval { get; } = new("--stream-interval") { Description = "gRPC --call of a client-streaming or bidirectional method: wait this long between two request messages of a call (ghz's --stream-interval), e.g. 10ms; at most 1m; default none." };

    public Option<bool> ShowReply { get; } = new("--show-reply") { Description = "--call: make one call before the load and print its reply (gRPC: decoded by protoc)." };

    public Option<string> SoapClient { get; } = new("--soap-client") { Description = $"The client of the harness's own SOAP operations: {string.Join(", ", SoapClients.All)}. lean (default): each envelope written once, posted with HttpClient, the reply read only for its status, fault code and times; wcf: the WCF client's full message stack, as a generated proxy calls. A soap --call is always sent the lean way.", DefaultValueFactory = _ => SoapClients.Lean };

    public Option<string> GrpcClient { get; } = new("--grpc-client") { Description = $"The client of the harness's own gRPC operations: {string.Join(", ", GrpcClients.All)}. lean (default): HTTP/2 frames written directly, many calls per socket send; grpcnet: Grpc.Net.Client over SocketsHttpHandler, as a .NET client calls. A grpc --call always uses Grpc.Net.Client.", DefaultValueFactory = _ => GrpcClients.Lean };

    public IReadOnlyList<Option> All => [Call, Data, DataFile,
        DataFeed, DataFeedOrder, DataFeedSeed,
        Metadata, Proto, ImportPath, Protoset, Wsdl, Envelope, SoapAction, StreamInterval, ShowReply, SoapClient, GrpcClient];

    /// <param name="targets">The run's <c>--target</c>s, whose stack the call is of.</param>
    /// <param name="operationsGiven">True when <c>--operations</c> was given (typed or from <c>--config</c>).</param>
    /// <returns>Null when there is no <c>--call</c>.</returns>
    /// <exception cref="UsageException">The options do not go together, a file cannot be read, or the template is bad; one line.</exception>
    public CallRequest? Bind(ParseResult parse, IReadOnlyList<ServiceTarget> targets, bool operationsGiven)
    {
        // run-config.json writes every option, --show-reply false too: a switch that is off was not asked for.
        var given = All.Where(o => o != Call && o != SoapClient && o != GrpcClient && parse.GetResult(o) is { Implicit: false } && !(o == ShowReply && !parse.GetValue(ShowReply)))
            .Select(o => o.Name).ToList();
        if (parse.GetValue(Call) is not { } call)
        {
            return given.Count == 0 ? null : throw new UsageException($"{given[0]} goes with --call, which names the method or operation to load.");
        }

        if (operationsGiven)
        {
            throw new UsageException("--operations and --call do not go together: --operations picks the harness's own operations, --call loads the one method it names; give one of them.");
        }

        if (targets.Count == 0)
        {
            throw new UsageException("--call needs --target grpc=URL or --target soap=URL: it loads a service that is already running, and no local services are started for it.");
        }

        var stacks = targets.Select(t => t.Stack).Distinct().ToList();
        if (stacks.Count > 1)
        {
            throw new UsageException("--call loads one service: give --target options of one stack (all grpc= or all soap=), not both.");
        }

        var stack = stacks[0];
        Option[] notForStack = stack == Stacks.Grpc ? [Wsdl, Envelope, SoapAction] : [Proto, ImportPath, Protoset, StreamInterval];
        if (notForStack.FirstOrDefault(o => given.Contains(o.Name)) is { } misplaced)
        {
            throw new UsageException(stack == Stacks.Grpc
                ? $"{misplaced.Name} is for a soap target; a grpc --call is described by the server's reflection, --proto or --protoset."
                : $"{misplaced.Name} is for a grpc target; a soap --call is described by the WSDL (--wsdl) or sent as --envelope.");
        }

        if (stack == Stacks.Grpc)
        {
            Guard(() => CallResolver.SplitGrpcCall(call));
        }
        else if (call.Contains('/'))
        {
            throw new UsageException($"--call '{call}': a soap target's call is an operation name from its WSDL, e.g. Add, not {call}.");
        }

        Exclusive(given, Data, DataFile);
        Exclusive(given, Proto, Protoset);
        Exclusive(given, Envelope, Data);
        Exclusive(given, Envelope, DataFile);
        Exclusive(given, Envelope, DataFeed);
        var feed = BindFeed(parse, given);
        if (given.Contains(ImportPath.Name) && !given.Contains(Proto.Name))
        {
            throw new UsageException("--import-path goes with --proto: it says where the .proto file's imports are.");
        }

        var envelope = parse.GetValue(Envelope);
        var (text, what) = envelope is not null ? (Read(envelope, Envelope.Name), $"--envelope {envelope}")
            : parse.GetValue(DataFile) is { } file ? (Read(file, DataFile.Name), $"--data-file {file}")
            : (parse.GetValue(Data) ?? "{}", "--data");
        return new CallRequest(
            stack,
            call,
            Guard(() => CallTemplate.Parse(text, what, feed)),
            [.. (parse.GetValue(Metadata) ?? []).Select(ParseHeader)],
            parse.GetValue(Proto),
            parse.GetValue(ImportPath) ?? [],
            parse.GetValue(Protoset),
            parse.GetValue(Wsdl),
            envelope,
            parse.GetValue(SoapAction),
            parse.GetValue(ShowReply),
            parse.GetValue(StreamInterval) is { } interval ? ParseStreamInterval(interval) : TimeSpan.Zero);
    }

    /// <exception cref="UsageException">Not a duration from 0 to a minute.</exception>
    private static TimeSpan ParseStreamInterval(string text) =>
        !text.TrimStart().StartsWith('-') && DurationJsonConverter.TryParse(text, out var interval) && interval <= MaxStreamInterval
            ? interval
            : throw new UsageException($"--stream-interval '{text}' is not a duration from 0 to {DurationJsonConverter.Format(MaxStreamInterval)}; write e.g. 10ms or 1s.");

    /// <summary><c>--soap-client</c>, checked: one of <see cref="SoapClients.All"/>, and not <c>wcf</c> with a <c>--call</c>, which has no WCF contract.</summary>
    /// <exception cref="UsageException">An unknown client, naming the valid ones; or wcf with --call.</exception>
    public string BindSoapClient(ParseResult parse, CallRequest? call)
    {
        var client = parse.GetValue(SoapClient)!;
        if (!SoapClients.All.Contains(client))
        {
            throw new UsageException($"--soap-client '{client}': valid values are {string.Join(", ", SoapClients.All)}.");
        }

        return client == SoapClients.Wcf && call is not null && parse.GetResult(SoapClient) is { Implicit: false }
            ? throw new UsageException("--soap-client wcf is for the harness's own operations: a soap --call is sent from its WSDL or --envelope by the lean client, as it has no WCF contract.")
            : client;
    }

    /// <summary><c>--grpc-client</c>, checked: one of <see cref="GrpcClients.All"/>. A <c>--call</c> ignores it (always Grpc.Net.Client).</summary>
    /// <exception cref="UsageException">An unknown client, naming the valid ones.</exception>
    public string BindGrpcClient(ParseResult parse)
    {
        var client = parse.GetValue(GrpcClient)!;
        return GrpcClients.All.Contains(client)
            ? client
            : throw new UsageException($"--grpc-client '{client}': valid values are {string.Join(", ", GrpcClients.All)}.");
    }

    private Clients.DataFeed? BindFeed(ParseResult parse, List<string> given)
    {
        var order = parse.GetValue(DataFeedOrder) ?? "circular";
        if (given.Contains(DataFeedOrder.Name) && !given.Contains(DataFeed.Name))
        {
            throw new UsageException("--data-feed-order goes with --data-feed: it says in which order the feed's rows are taken.");
        }

        if (parse.GetValue(DataFeed) is not { } file)
        {
            return given.Contains(DataFeedSeed.Name)
                ? throw new UsageException("--data-feed-seed goes with --data-feed and --data-feed-order random or shuffle: it fixes their sequence of rows.")
                : null;
        }

        if (!Enum.TryParse<Clients.DataFeedOrder>(order, ignoreCase: true, out var parsed) || int.TryParse(order, out _))
        {
            throw new UsageException($"--data-feed-order '{order}': valid values are circular, random, shuffle.");
        }

        ulong? seed = null;
        if (parse.GetValue(DataFeedSeed) is { } text)
        {
            seed = parsed == Clients.DataFeedOrder.Circular
                ? throw new UsageException("--data-feed-seed goes with --data-feed-order random or shuffle; circular takes the rows in the file's order, with no seed.")
                : ulong.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var value)
                ? value
                : throw new UsageException($"--data-feed-seed '{text}': takes a whole number from 0 to {ulong.MaxValue}.");
        }

        return Guard(() => Clients.DataFeed.Load(file, parsed, seed));
    }

    private static void Exclusive(List<string> given, Option one, Option other)
    {
        if (given.Contains(one.Name) && given.Contains(other.Name))
        {
            throw new UsageException($"{one.Name} and {other.Name} do not go together; give one of them.");
        }
    }

    private static KeyValuePair<string, string> ParseHeader(string text)
    {
        var pair = text.Split('=', 2);
        var key = pair[0].Trim().ToLowerInvariant();
        if (pair.Length != 2 || key.Length == 0 || !key.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.'))
        {
            throw new UsageException($"--metadata '{text}' must be key=value, the key of letters, digits, '-', '_' and '.', e.g. authorization=Bearer abc.");
        }

        if (pair[1].AsSpan().IndexOfAny('\r', '\n', '\0') >= 0)
        {
            throw new UsageException($"--metadata '{key}': the value holds a line break or NUL, which no header can carry.");
        }

        return key.EndsWith("-bin", StringComparison.Ordinal)
            ? throw new UsageException($"--metadata '{text}': binary (-bin) headers are not supported; give text headers.")
            : new(key, pair[1]);
    }

    private static string Read(string path, string option)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"{option} {path}: cannot be read ({ex.Message}).");
        }
    }

    private static T Guard<T>(Func<T> check)
    {
        try
        {
            return check();
        }
        catch (CallSetupException ex)
        {
            throw new UsageException(ex.Message);
        }
    }
}

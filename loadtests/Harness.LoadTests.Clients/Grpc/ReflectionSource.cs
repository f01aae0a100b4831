using Google.Protobuf;
using Grpc.Core;
using Grpc.Reflection.V1;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// A method's descriptors from the server's reflection service: <c>grpc.reflection.v1</c>, else <c>v1alpha</c> (older
/// servers have only that). The two versions' messages are the same on the wire, so v1's generated messages serve
/// both; only the service name differs. One stream: the services it lists, the file defining the service, then each
/// import it lacks. Bounded as every setup read (<see cref="SetupReads"/>): the whole stream within the run's
/// <c>--timeout</c>, each response and all the descriptors together at most <see cref="SetupReads.MaxBytes"/> (the
/// channel's MaxReceiveMessageSize, CallResolver's), and at most <see cref="MaxFiles"/> files followed, so a server that
/// keeps naming new files, or sends endless ones, cannot hold the run or its memory.
/// </summary>
internal static class ReflectionSource
{
    private const string V1 = "grpc.reflection.v1";
    private const string V1Alpha = "grpc.reflection.v1alpha";
    private const int MaxFiles = 500;

    /// <exception cref="CallSetupException">
    /// No reflection (or it cannot be reached): the message says to give <c>--proto</c>. An unknown service: it lists
    /// those the reflection knows. An unknown method: <see cref="GrpcMethod.Find"/>. A bound passed: it names the bound.
    /// </exception>
    /// <param name="timeout">The whole stream's bound (the run's <c>--timeout</c>).</param>
    public static async Task<GrpcMethod> FindAsync(
        CallInvoker invoker, Uri address, string call, Metadata headers, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var (serviceName, _) = GrpcMethod.Split(call);

        // One bound for both versions: a server that answers v1 late cannot have the timeout again for v1alpha.
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(timeout);
        foreach (var version in (string[])[V1, V1Alpha])
        {
            try
            {
                var (files, services) = await FetchAsync(invoker, version, serviceName, headers, timeout, bounded.Token, cancellationToken);
                if (files is null)
                {
                    throw new CallSetupException(
                        $"--call '{call}': the server's reflection knows no service {serviceName}; it lists {(services.Count == 0 ? "none" : string.Join(", ", services))}.");
                }

                return GrpcMethod.Find(files, call, $"the server's reflection ({version})");
            }
            catch (RpcException ex) when (ex.StatusCode == StatusCode.Unimplemented && version == V1 && !bounded.IsCancellationRequested)
            {
                // An older server: try v1alpha.
            }
            catch (RpcException ex) when (!cancellationToken.IsCancellationRequested)
            {
                // Past the bound the client may say CANCELLED rather than what the stream was doing.
                var why = (bounded.IsCancellationRequested ? StatusCode.DeadlineExceeded : ex.StatusCode) switch
                {
                    StatusCode.Unimplemented => $"has no reflection service ({V1} and {V1Alpha} answer UNIMPLEMENTED)",
                    StatusCode.DeadlineExceeded => $"did not answer its reflection service within {SetupReads.TimeoutText(timeout)}, the bound of reading it",
                    StatusCode.ResourceExhausted =>
                        $"sent more reflection than a --call's setup reads, at most {SetupReads.MaxBytesText} and {MaxFiles} files ({ex.Status.Detail})",
                    _ => $"could not be asked for its reflection ({ex.StatusCode}: {ex.Status.Detail})",
                };
                // A failed handshake fails every call alike: the fix is the trust or the client certificate, not --proto.
                throw new CallSetupException(
                    FailureStatus.IsTlsHandshakeFailure(ex)
                        ? $"--call '{call}': the TLS handshake with {address} failed, so its reflection could not be read ({ex.Status.Detail}); "
                            + "trust its certificate with --cacert FILE (or --insecure), and give --cert FILE --key FILE if it asks for a client certificate."
                        : $"--call '{call}': {address} {why}; give --proto FILE (or --protoset FILE) to describe the service.",
                    ex);
            }
        }

        throw new InvalidOperationException("unreachable: v1alpha either returns or throws");
    }

    /// <returns>The files (null when the reflection does not know the service) and the services it lists.</returns>
    private static async Task<(IReadOnlyList<ByteString>? Files, IReadOnlyList<string> Services)> FetchAsync(
        CallInvoker invoker, string version, string serviceName, Metadata headers, TimeSpan timeout, CancellationToken bounded, CancellationToken cancellationToken)
    {
        var method = new Method<ServerReflectionRequest, ServerReflectionResponse>(
            MethodType.DuplexStreaming,
            version + ".ServerReflection",
            "ServerReflectionInfo",
            Marshallers.Create(r => r.ToByteArray(), ServerReflectionRequest.Parser.ParseFrom),
            Marshallers.Create(r => r.ToByteArray(), ServerReflectionResponse.Parser.ParseFrom));
        using var stream = invoker.AsyncDuplexStreamingCall(method, null, new CallOptions(headers, cancellationToken: bounded));

        async Task<ServerReflectionResponse> AskAsync(ServerReflectionRequest request)
        {
            try
            {
                await stream.RequestStream.WriteAsync(request, bounded);
            }
            catch (Exception ex) when (ex is RpcException or InvalidOperationException or IOException)
            {
                // A server without the service ends the call at once (UNIMPLEMENTED, trailers only), which can fail
                // the write as CANCELLED before that status arrives (1 call in 25 against grpc-js): the response
                // has the real status, and reading it throws it.
                await stream.ResponseStream.MoveNext(bounded);
                throw;
            }

            return await stream.ResponseStream.MoveNext(bounded)
                ? stream.ResponseStream.Current
                : throw new RpcException(new Status(StatusCode.Unavailable, "the reflection stream ended before its answer"));
        }

        try
        {
            var listed = await AskAsync(new ServerReflectionRequest { ListServices = "" });
            var services = listed.ListServicesResponse?.Service.Select(s => s.Name).ToList() ?? [];
            var found = await AskAsync(new ServerReflectionRequest { FileContainingSymbol = serviceName });
            if (found.FileDescriptorResponse is not { } first)
            {
                return (null, services);
            }

            var files = new Files();
            files.Add(first);
            for (var missing = files.Missing(); missing is not null; missing = files.Missing())
            {
                if (files.Count >= MaxFiles)
                {
                    throw new RpcException(new Status(StatusCode.ResourceExhausted, $"{MaxFiles} files followed and {missing} still missing"));
                }

                var answer = await AskAsync(new ServerReflectionRequest { FileByFilename = missing });

                // A file the server cannot give is left for GrpcMethod.Find to name as the missing import.
                if (answer.FileDescriptorResponse is not { } more || !files.Add(more))
                {
                    break;
                }
            }

            await stream.RequestStream.CompleteAsync();
            return (files.All, services);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new RpcException(new Status(StatusCode.DeadlineExceeded, $"no answer within {SetupReads.TimeoutText(timeout)}"));
        }
    }

    /// <summary>The files received, by name, each parsed once for its imports, their bytes counted against <see cref="SetupReads.MaxBytes"/>.</summary>
    private sealed class Files
    {
        private readonly Dictionary<string, (ByteString Bytes, IReadOnlyList<string> Imports)> _files = new(StringComparer.Ordinal);
        private long _bytes;

        public int Count => _files.Count;

        public IReadOnlyList<ByteString> All => [.. _files.Values.Select(f => f.Bytes)];

        /// <summary>Adds the response's files; false when it held none that were new.</summary>
        /// <exception cref="RpcException">RESOURCE_EXHAUSTED: the files received passed the bound.</exception>
        public bool Add(FileDescriptorResponse response)
        {
            var added = false;
            foreach (var bytes in response.FileDescriptorProto)
            {
                _bytes += bytes.Length;
                if (_bytes > SetupReads.MaxBytes)
                {
                    throw new RpcException(new Status(StatusCode.ResourceExhausted, $"more than {SetupReads.MaxBytes} bytes of descriptors in all"));
                }

                var file = Google.Protobuf.Reflection.FileDescriptorProto.Parser.ParseFrom(bytes);
                added |= _files.TryAdd(file.Name, (bytes, [.. file.Dependency]));
            }

            return added;
        }

        /// <summary>An import that none of the files is, or null when every import is there.</summary>
        public string? Missing() => _files.Values.SelectMany(f => f.Imports).FirstOrDefault(d => !_files.ContainsKey(d));
    }
}

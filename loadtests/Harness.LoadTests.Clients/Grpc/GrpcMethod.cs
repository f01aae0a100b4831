using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>A unary method as its descriptors give it: where to send, and the request's and reply's types.</summary>
/// <param name="Source">Where the descriptors came from, for the report: <c>server reflection (grpc.reflection.v1)</c>, <c>--proto greeter.proto</c>.</param>
/// <param name="Files">Every file of the descriptors, its imports first: what <c>--show-reply</c> decodes the reply with.</param>
internal sealed record GrpcMethod(string Service, string Name, MessageDescriptor Input, MessageDescriptor Output, TypeRegistry Registry, string Source, IReadOnlyList<ByteString> Files)
{
    /// <summary>Splits <c>package.Service/Method</c>.</summary>
    /// <exception cref="CallSetupException">Not of that form.</exception>
    public static (string Service, string Method) Split(string call)
    {
        var slash = call.LastIndexOf('/');
        return slash > 0 && slash < call.Length - 1 && call.IndexOf('/') == slash
            ? (call[..slash], call[(slash + 1)..])
            : throw new CallSetupException($"--call '{call}': a gRPC call is package.Service/Method, e.g. helloworld.Greeter/SayHello.");
    }

    /// <summary>Finds <paramref name="call"/> among the files of a descriptor set (serialized <c>FileDescriptorProto</c>s, in any order).</summary>
    /// <exception cref="CallSetupException">
    /// The files do not build (an import is missing), or define no such service (the message lists those they do) or
    /// method (it lists the service's methods), or the method streams.
    /// </exception>
    public static GrpcMethod Find(IEnumerable<ByteString> files, string call, string source)
    {
        var (serviceName, methodName) = Split(call);
        var ordered = DependenciesFirst(files, source);
        IReadOnlyList<FileDescriptor> built;
        try
        {
            built = FileDescriptor.BuildFromByteStrings(ordered);
        }
        catch (Exception ex) when (ex is DescriptorValidationException or InvalidProtocolBufferException or ArgumentException)
        {
            throw new CallSetupException($"the descriptors from {source} do not build: {ex.Message.ReplaceLineEndings(" ")}", ex);
        }

        var services = built.SelectMany(f => f.Services).ToList();
        var service = services.FirstOrDefault(s => s.FullName == serviceName)
            ?? throw new CallSetupException(
                $"--call '{call}': {source} has no service {serviceName}; it has {Listed(services.Select(s => s.FullName))}.");
        var method = service.FindMethodByName(methodName)
            ?? throw new CallSetupException(
                $"--call '{call}': {serviceName} has no method {methodName}; its methods are {Listed(service.Methods.Select(m => m.Name))}.");
        if (method.IsClientStreaming || method.IsServerStreaming)
        {
            throw new CallSetupException(
                $"--call '{call}' is a {(method.IsClientStreaming ? method.IsServerStreaming ? "bidirectional" : "client" : "server")}-streaming method; only unary methods can be loaded. Unary methods of {serviceName}: {Listed(service.Methods.Where(m => !m.IsClientStreaming && !m.IsServerStreaming).Select(m => m.Name))}.");
        }

        return new GrpcMethod(serviceName, methodName, method.InputType, method.OutputType, TypeRegistry.FromFiles([.. built]), source, ordered);
    }

    /// <summary>The set's files, each after the files it imports (what BuildFromByteStrings needs), duplicates dropped.</summary>
    private static IReadOnlyList<ByteString> DependenciesFirst(IEnumerable<ByteString> files, string source)
    {
        var byName = new Dictionary<string, (ByteString Bytes, FileDescriptorProto Proto)>(StringComparer.Ordinal);
        foreach (var bytes in files)
        {
            FileDescriptorProto proto;
            try
            {
                proto = FileDescriptorProto.Parser.ParseFrom(bytes);
            }
            catch (InvalidProtocolBufferException ex)
            {
                throw new CallSetupException($"{source} gave a file descriptor that does not parse ({ex.Message}).", ex);
            }

            byName.TryAdd(proto.Name, (bytes, proto));
        }

        var ordered = new List<ByteString>();
        var placed = new HashSet<string>(StringComparer.Ordinal);
        var visiting = new HashSet<string>(StringComparer.Ordinal);

        void Place(string name, string importer)
        {
            if (placed.Contains(name))
            {
                return;
            }

            if (!byName.TryGetValue(name, out var file))
            {
                throw new CallSetupException($"{importer} imports {name}, which {source} did not give.");
            }

            if (!visiting.Add(name))
            {
                throw new CallSetupException($"{source}: {name} imports itself through its imports.");
            }

            foreach (var dependency in file.Proto.Dependency)
            {
                Place(dependency, name);
            }

            placed.Add(name);
            ordered.Add(file.Bytes);
        }

        foreach (var name in byName.Keys.ToList())
        {
            Place(name, name);
        }

        return ordered;
    }

    private static string Listed(IEnumerable<string> names)
    {
        var list = names.ToList();
        return list.Count == 0 ? "none" : string.Join(", ", list);
    }
}

using System.Globalization;
using System.Text.RegularExpressions;
using Harness.KubeletStandIn.Manifests;
using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

/// <summary>What the kubelet knows about a pod when it builds a container's environment.</summary>
internal sealed record PodFacts(
    string Namespace, string Name, string Uid, IDictionary<string, string> Labels, IDictionary<string, string> Annotations,
    string? PodIp, string? HostIp, string? ServiceAccount)
{
    public const string NodeName = "kubelet-stand-in";
}

/// <summary>
/// A container's environment as the kubelet builds it: <c>envFrom</c> first, then <c>env</c> in order (a later entry
/// overrides), each <c>value</c> $(VAR)-expanded with the entries before it; <c>fieldRef</c> for the pod's metadata,
/// labels and annotations (and podIP, hostIP, nodeName, serviceAccountName), <c>resourceFieldRef</c>,
/// <c>configMapKeyRef</c>. The image's own ENV is not visible to the expansion, as on a cluster. A reference the pod
/// cannot satisfy (a missing ConfigMap key that is not optional, a Secret) is a <see cref="PodConfigException"/>: the
/// kubelet's CreateContainerConfigError.
/// </summary>
internal static partial class EnvResolver
{
    public static IReadOnlyList<KeyValuePair<string, string>> Resolve(V1Container container, PodFacts pod, ManifestSet manifests)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        var order = new List<string>();
        void Put(string name, string value)
        {
            if (!values.ContainsKey(name))
            {
                order.Add(name);
            }

            values[name] = value;
        }

        foreach (var source in container.EnvFrom ?? [])
        {
            if (source.SecretRef is not null)
            {
                throw new PodConfigException($"container {container.Name}: envFrom secretRef is not emulated (the stand-in has no Secrets)");
            }

            if (source.ConfigMapRef is { } reference)
            {
                var map = manifests.ConfigMap(pod.Namespace, reference.Name);
                if (map is null)
                {
                    if (reference.Optional == true)
                    {
                        continue;
                    }

                    throw new PodConfigException($"container {container.Name}: envFrom configMap \"{reference.Name}\" not found");
                }

                foreach (var (key, value) in map.Data ?? new Dictionary<string, string>())
                {
                    var name = (source.Prefix ?? "") + key;
                    if (ValidName().IsMatch(name))
                    {
                        Put(name, value);
                    }
                }
            }
        }

        foreach (var variable in container.Env ?? [])
        {
            if (variable.ValueFrom is null)
            {
                Put(variable.Name, Expansion.Expand(variable.Value ?? "", values));
            }
            else if (From(variable, container, pod, manifests) is { } value)
            {
                Put(variable.Name, value);
            }
        }

        return [.. order.Select(n => KeyValuePair.Create(n, values[n]))];
    }

    /// <summary>The value of a <c>fieldRef</c> path, or an exception naming the unsupported path.</summary>
    public static string Field(string path, PodFacts pod)
    {
        var keyed = KeyedField().Match(path);
        if (keyed.Success)
        {
            var map = keyed.Groups[1].Value == "labels" ? pod.Labels : pod.Annotations;
            return map.TryGetValue(keyed.Groups[2].Value, out var value) ? value : "";
        }

        return path switch
        {
            "metadata.name" => pod.Name,
            "metadata.namespace" => pod.Namespace,
            "metadata.uid" => pod.Uid,
            "metadata.labels" => Join(pod.Labels),
            "metadata.annotations" => Join(pod.Annotations),
            "spec.nodeName" => PodFacts.NodeName,
            "spec.serviceAccountName" => pod.ServiceAccount ?? "default",
            "status.podIP" or "status.podIPs" => pod.PodIp ?? "",
            "status.hostIP" or "status.hostIPs" => pod.HostIp ?? "",
            _ => throw new PodConfigException($"fieldRef {path} is not supported"),
        };
    }

    private static string? From(V1EnvVar variable, V1Container container, PodFacts pod, ManifestSet manifests)
    {
        var from = variable.ValueFrom;
        if (from.FieldRef is { } field)
        {
            return Field(field.FieldPath, pod);
        }

        if (from.ConfigMapKeyRef is { } key)
        {
            var map = manifests.ConfigMap(pod.Namespace, key.Name);
            if (map?.Data is { } data && data.TryGetValue(key.Key, out var value))
            {
                return value;
            }

            return key.Optional == true
                ? null
                : throw new PodConfigException($"container {container.Name}: {variable.Name}: configMap \"{key.Name}\" {(map is null ? "not found" : $"has no key \"{key.Key}\"")}");
        }

        if (from.ResourceFieldRef is { } resource)
        {
            return Resource(resource, container);
        }

        throw new PodConfigException($"container {container.Name}: {variable.Name}: secretKeyRef is not emulated (the stand-in has no Secrets)");
    }

    private static string Resource(V1ResourceFieldSelector selector, V1Container container)
    {
        var parts = selector.Resource.Split('.', 2);
        var map = parts[0] == "limits" ? container.Resources?.Limits : container.Resources?.Requests;
        var quantity = parts.Length == 2 ? Quantities.Get(map, parts[1]) ?? (parts[0] == "requests" ? Quantities.Get(container.Resources?.Limits, parts[1]) : null) : null;
        if (quantity is null)
        {
            throw new PodConfigException($"container {container.Name}: resourceFieldRef {selector.Resource} has no value (the node's capacity is not emulated)");
        }

        var divisor = selector.Divisor?.ToDecimal() is { } d && d > 0 ? d : 1m;
        // The kubelet rounds up: 100m of CPU with divisor 1 is "1".
        return decimal.Ceiling(quantity.ToDecimal() / divisor).ToString(CultureInfo.InvariantCulture);
    }

    private static string Join(IDictionary<string, string> map) =>
        string.Join('\n', map.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}=\"{p.Value}\""));

    [GeneratedRegex(@"^metadata\.(labels|annotations)\['(.+)'\]$")]
    private static partial Regex KeyedField();

    [GeneratedRegex(@"^[-._a-zA-Z][-._a-zA-Z0-9]*$")]
    private static partial Regex ValidName();
}

/// <summary>A pod the kubelet cannot start as specified (CreateContainerConfigError): the pod fails with this message.</summary>
internal sealed class PodConfigException(string message) : Exception(message);

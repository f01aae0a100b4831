using System.Runtime.Serialization;
using System.Xml;
using System.Xml.Linq;
using System.Xml.Schema;

namespace Harness.Rpc.Soap;

/// <summary>A contract's schemas, and which message wrappers are declared the way CoreWCF declares a message contract's.</summary>
/// <param name="Schemas">One per XML namespace, the contract namespace's first.</param>
/// <param name="TypedWrappers">Wrapper elements (in the contract namespace) declared with an anonymous type holding the members.</param>
internal sealed record SoapSchemas(IReadOnlyList<XElement> Schemas, IReadOnlySet<string> TypedWrappers);

/// <summary>
/// The XML schemas of a contract, shaped as CoreWCF 1.9.1 exports them for operations whose request and response are
/// wrapped message contracts (the CoreWCF counterpart of a stand-in operation, docs/soap-wire.md): each wrapper is a
/// global element in the contract namespace with an anonymous complex type whose sequence holds the body members
/// (<c>MessageContractExporter.ExportWrappedPart</c> and <c>ExportLocalElement</c>): a member in the contract
/// namespace is a local element, one in another namespace a reference to a global element there. The members are the
/// request's or response's data members as <see cref="XsdDataContractExporter"/> (the exporter CoreWCF uses for
/// data contracts) exports them, since the stand-in's serializer writes exactly those; the member types stay exported
/// as data contracts, while the request and response types themselves are not (a message contract is no data contract).
/// A type whose content is not a sequence of elements (a string, an <c>ISerializable</c>) has no message-contract
/// counterpart and keeps a wrapper element of its own type.
/// </summary>
internal static class SoapSchemaExporter
{
    /// <summary>
    /// Exports the schemas, the contract namespace's first and the others by namespace, so their indexes (the N of
    /// <c>?xsd=xsdN</c>) are stable. The set is compiled, so a contract whose schemas conflict fails here.
    /// </summary>
    /// <exception cref="InvalidOperationException">A wrapper or member element clashes with another element of the same name.</exception>
    public static SoapSchemas Export(string contractName, string contractNamespace, IReadOnlyList<SoapOperation> operations)
    {
        var exporter = new XsdDataContractExporter();
        foreach (SoapOperation operation in operations)
        {
            exporter.Export(operation.RequestType);
            exporter.Export(operation.ResponseType);
        }

        XmlSchemaSet set = exporter.Schemas;
        set.Compile();
        XmlSchema contractSchema = set.Schemas(contractNamespace).Cast<XmlSchema>().FirstOrDefault() ?? AddSchema(set, contractNamespace);

        // Every body is read before the set changes: the members of each request and response type.
        List<Body> bodies = [.. operations.SelectMany(operation => new[]
        {
            ReadBody(set, exporter, operation.RequestWrapper.Name, operation.RequestType),
            ReadBody(set, exporter, operation.RequestWrapper.Name + "Response", operation.ResponseType),
        })];
        HashSet<XmlQualifiedName> replaced = [.. bodies.Where(body => body.Members is not null).Select(body => body.TypeName)];
        Dictionary<XmlQualifiedName, XmlSchemaElement> replacedElements = RemoveGlobalElements(set, replaced);

        var context = new ExportContext(contractName, set, contractSchema);
        int position = 0;
        foreach (Body body in bodies)
        {
            XmlSchemaElement wrapper = body.Members is { } members ? context.TypedWrapper(body.Name, members) : Wrapper(body);
            context.AddGlobal(contractSchema, wrapper, position++);
        }

        RemoveUnreferencedTypes(set, replaced, replacedElements);
        try
        {
            foreach (XmlSchema schema in set.Schemas().Cast<XmlSchema>().ToList())
            {
                set.Reprocess(schema);
            }

            set.Compile();
        }
        catch (XmlSchemaException e)
        {
            throw new InvalidOperationException($"Contract '{contractName}' has no valid XML schema: {e.Message}", e);
        }

        List<XElement> schemas = [.. set.Schemas().Cast<XmlSchema>()
            .Where(schema => schema.TargetNamespace != XmlSchema.Namespace)
            .OrderBy(schema => schema.TargetNamespace == contractNamespace ? 0 : 1)
            .ThenBy(schema => schema.TargetNamespace, StringComparer.Ordinal)
            .Select(ToElement)];
        return new SoapSchemas(schemas, bodies.Where(body => body.Members is not null).Select(body => body.Name).ToHashSet(StringComparer.Ordinal));
    }

    private static XmlSchema AddSchema(XmlSchemaSet set, string targetNamespace)
    {
        var schema = new XmlSchema { TargetNamespace = targetNamespace, ElementFormDefault = XmlSchemaForm.Qualified };
        schema.Namespaces.Add("tns", targetNamespace);
        schema.Namespaces.Add("xs", XmlSchema.Namespace);
        set.Add(schema);
        return schema;
    }

    private static Body ReadBody(XmlSchemaSet set, XsdDataContractExporter exporter, string wrapperName, Type type)
    {
        XmlQualifiedName typeName = exporter.GetSchemaTypeName(type);
        var members = new List<XmlSchemaElement>();
        bool sequence = set.GlobalTypes[typeName] is XmlSchemaComplexType complex && TryFlatten(set, complex, members, depth: 0);
        return new Body(wrapperName, type, typeName, sequence ? members : null);
    }

    /// <summary>
    /// Collects a complex type's elements, its base type's first (DataContractSerializer writes them first), when its
    /// whole content is a sequence of elements; false for anything else (attributes, wildcards, simple content).
    /// </summary>
    private static bool TryFlatten(XmlSchemaSet set, XmlSchemaComplexType type, List<XmlSchemaElement> members, int depth)
    {
        if (depth > 32 || type.Attributes.Count > 0 || type.AnyAttribute is not null)
        {
            return false;
        }

        XmlSchemaParticle? particle = type.Particle;
        if (type.ContentModel is XmlSchemaComplexContent { Content: XmlSchemaComplexContentExtension extension })
        {
            if (extension.Attributes.Count > 0 || extension.AnyAttribute is not null
                || set.GlobalTypes[extension.BaseTypeName] is not XmlSchemaComplexType baseType
                || !TryFlatten(set, baseType, members, depth + 1))
            {
                return false;
            }

            particle = extension.Particle;
        }
        else if (type.ContentModel is not null)
        {
            return false;
        }

        if (particle is null)
        {
            return true;
        }

        if (particle is not XmlSchemaSequence sequence || sequence.Items.Cast<XmlSchemaObject>().Any(item => item is not XmlSchemaElement))
        {
            return false;
        }

        members.AddRange(sequence.Items.Cast<XmlSchemaElement>());
        return true;
    }

    /// <summary>A wrapper of the request's or response's own type, for a type that is no sequence of elements.</summary>
    private static XmlSchemaElement Wrapper(Body body) => new()
    {
        Name = body.Name,
        SchemaTypeName = body.TypeName,
        // DataContractSerializer writes a null reference as a nil element.
        IsNillable = !body.Type.IsValueType || Nullable.GetUnderlyingType(body.Type) is not null,
    };

    /// <summary>Removes the global element DataContractSerializer declares for each type (named as the type), returning them.</summary>
    private static Dictionary<XmlQualifiedName, XmlSchemaElement> RemoveGlobalElements(XmlSchemaSet set, IEnumerable<XmlQualifiedName> types)
    {
        var removed = new Dictionary<XmlQualifiedName, XmlSchemaElement>();
        foreach (XmlQualifiedName type in types)
        {
            foreach (XmlSchema schema in set.Schemas(type.Namespace).Cast<XmlSchema>())
            {
                XmlSchemaElement? element = schema.Items.OfType<XmlSchemaElement>().FirstOrDefault(e => e.Name == type.Name && e.SchemaTypeName == type);
                if (element is not null)
                {
                    schema.Items.Remove(element);
                    removed[type] = element;
                }
            }
        }

        return removed;
    }

    /// <summary>
    /// Removes the replaced types nothing refers to any more. One still referred to (a member of that type) stays, with
    /// its global element where the name is still free, as CoreWCF would export it for that member.
    /// </summary>
    private static void RemoveUnreferencedTypes(XmlSchemaSet set, HashSet<XmlQualifiedName> replaced, Dictionary<XmlQualifiedName, XmlSchemaElement> elements)
    {
        List<(XmlSchema Schema, XmlSchemaComplexType Type)> candidates = [.. set.Schemas().Cast<XmlSchema>()
            .SelectMany(schema => schema.Items.OfType<XmlSchemaComplexType>().Select(type => (schema, type)))
            .Where(pair => replaced.Contains(new XmlQualifiedName(pair.type.Name, pair.schema.TargetNamespace)))];
        HashSet<XmlSchemaObject> excluded = [.. candidates.Select(candidate => candidate.Type)];
        HashSet<XmlQualifiedName> referenced = [.. set.Schemas().Cast<XmlSchema>()
            .SelectMany(schema => schema.Items.Cast<XmlSchemaObject>())
            .Where(item => !excluded.Contains(item))
            .SelectMany(SchemaReferences.TypesOf)];
        // A kept type keeps what it refers to.
        for (bool grew = true; grew;)
        {
            grew = false;
            foreach ((XmlSchema schema, XmlSchemaComplexType type) in candidates)
            {
                if (referenced.Contains(new XmlQualifiedName(type.Name, schema.TargetNamespace)) && excluded.Remove(type))
                {
                    grew |= SchemaReferences.TypesOf(type).Count(referenced.Add) > 0;
                }
            }
        }

        foreach ((XmlSchema schema, XmlSchemaComplexType type) in candidates)
        {
            var name = new XmlQualifiedName(type.Name, schema.TargetNamespace);
            if (excluded.Contains(type))
            {
                schema.Items.Remove(type);
            }
            else if (elements.TryGetValue(name, out XmlSchemaElement? element) && !schema.Items.OfType<XmlSchemaElement>().Any(e => e.Name == element.Name))
            {
                schema.Items.Add(element);
            }
        }
    }

    private static XElement ToElement(XmlSchema schema)
    {
        var document = new XDocument();
        using (XmlWriter writer = document.CreateWriter())
        {
            schema.Write(writer);
        }

        return document.Root!;
    }

    /// <summary>One message body: its wrapper's name, the type the stand-in serializes, and that type's members (null when it has none to list).</summary>
    private sealed record Body(string Name, Type Type, XmlQualifiedName TypeName, IReadOnlyList<XmlSchemaElement>? Members);

    /// <summary>Adds elements to the set's schemas, refusing one whose name another element of a different declaration has.</summary>
    private sealed class ExportContext(string contractName, XmlSchemaSet set, XmlSchema contractSchema)
    {
        /// <summary>
        /// The wrapper with an anonymous type of the members, as CoreWCF's ExportWrappedPart and ExportLocalElement make
        /// it: a member in the contract namespace is a local element, one in another namespace a reference to a global
        /// element there.
        /// </summary>
        public XmlSchemaElement TypedWrapper(string name, IReadOnlyList<XmlSchemaElement> members)
        {
            var sequence = new XmlSchemaSequence();
            foreach (XmlSchemaElement member in members)
            {
                string memberNamespace = member.QualifiedName.Namespace;
                if (memberNamespace == contractSchema.TargetNamespace)
                {
                    XmlSchemaElement local = Declaration(member);
                    local.MinOccurs = member.MinOccurs;
                    local.MaxOccursString = member.MaxOccursString;
                    Import(contractSchema, local.SchemaTypeName.Namespace);
                    sequence.Items.Add(local);
                }
                else
                {
                    sequence.Items.Add(new XmlSchemaElement
                    {
                        RefName = member.QualifiedName,
                        MinOccurs = member.MinOccurs,
                        MaxOccursString = member.MaxOccursString,
                    });
                    Import(contractSchema, memberNamespace);
                    XmlSchema memberSchema = set.Schemas(memberNamespace).Cast<XmlSchema>().First();
                    XmlSchemaElement global = Declaration(member);
                    Import(memberSchema, global.SchemaTypeName.Namespace);
                    AddGlobal(memberSchema, global, memberSchema.Items.Count);
                }
            }

            return new XmlSchemaElement { Name = name, SchemaType = new XmlSchemaComplexType { Particle = sequence } };
        }

        /// <summary>Adds <paramref name="element"/> at <paramref name="position"/>, unless the same declaration is there already.</summary>
        public void AddGlobal(XmlSchema schema, XmlSchemaElement element, int position)
        {
            XmlSchemaElement? existing = schema.Items.OfType<XmlSchemaElement>().FirstOrDefault(e => e.Name == element.Name);
            if (existing is null)
            {
                schema.Items.Insert(Math.Min(position, schema.Items.Count), element);
                return;
            }

            // The same typed declaration (a member shared by two messages, or a wrapper two operations share) is one element.
            if (existing.SchemaType is null && element.SchemaType is null && existing.SchemaTypeName == element.SchemaTypeName
                && existing.IsNillable == element.IsNillable)
            {
                return;
            }

            throw new InvalidOperationException(
                $"Contract '{contractName}': the element '{element.Name}' in '{schema.TargetNamespace}' is declared twice with different " +
                $"types ({Describe(existing)} and {Describe(element)}). Rename the operation, the data member or the data contract.");
        }

        private static XmlSchemaElement Declaration(XmlSchemaElement member) => new()
        {
            Name = member.Name,
            SchemaTypeName = member.SchemaTypeName,
            SchemaType = member.SchemaTypeName.IsEmpty ? member.SchemaType : null,
            IsNillable = member.IsNillable,
        };

        private static string Describe(XmlSchemaElement element) =>
            element.SchemaType is not null ? "an anonymous type" : $"'{element.SchemaTypeName}'";

        private static void Import(XmlSchema schema, string ns)
        {
            if (ns.Length > 0 && ns != schema.TargetNamespace && ns != XmlSchema.Namespace
                && !schema.Includes.OfType<XmlSchemaImport>().Any(import => import.Namespace == ns))
            {
                schema.Includes.Add(new XmlSchemaImport { Namespace = ns });
            }
        }
    }
}

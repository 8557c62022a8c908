import struct, numpy as np, sys
DT={0:np.float32,1:np.int8,2:np.int16,3:np.int32,4:np.float16,5:'bf16'}
def read(path):
    b=open(path,'rb').read(); o=0
    def u(fmt):
        nonlocal o; v=struct.unpack_from(fmt,b,o); o+=struct.calcsize(fmt); return v[0]
    def s():
        nonlocal o; n=u('<H'); v=b[o:o+n].rstrip(b'\0').decode(); o+=n; return v
    ver=u('<I'); name=s(); rev=u('<I'); n=u('<I'); out={}
    for i in range(n):
        k=s(); r=u('<B'); shape=[u('<I') for _ in range(r)]; dt=u('<B'); nb=u('<I')
        a=np.frombuffer(b,dtype=DT[dt],count=nb//np.dtype(DT[dt]).itemsize,offset=o).reshape(shape); o+=nb
        out[k]=a
    na=u('<I'); al={}
    for i in range(na): al[s()]=s()
    return ver,name,rev,out,al
if __name__=='__main__':
    ver,name,rev,v,al=read(sys.argv[1]); print(ver,name,rev,len(v),'aliases',al)
    from collections import Counter; print(Counter(str(a.dtype) for a in v.values()))
    for k,a in v.items():
        if 'layer_1' in k or 'layer_2' in k or 'layer_3' in k or 'layer_4' in k or 'layer_5' in k: continue
        print(k,a.dtype,a.shape, a.ravel()[:3] if a.size<100 else '')
